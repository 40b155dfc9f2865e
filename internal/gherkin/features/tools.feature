Feature: tools — each tool as the model is offered it
  context.md §10, rule 4: "The tool list is the same for the whole session." A tool's definition
  is tools/<name>.json's name, description and parameters, byte for byte; filesystem.md, Errors:
  "The tool's description says what it needs."

  Scenario: the tools come in the order the session lists them
    Given the session offers:
      | tool   |
      | rm     |
      | mkdir  |
      | commit |
    When the tools are listed
    Then tool 1 is "rm"
    And tool 2 is "mkdir"
    And tool 3 is "commit"

  Scenario: rm says it moves to the trash and what a directory takes with it
    Given the session offers "rm"
    Then tool 1's description is:
      """
      Delete a file or directory by moving it to the trash, from which the user can restore it. A directory goes with everything in it: list it first.

      - `path` may be absolute or relative to the working directory.
      - In a repository (a mount) the deletion is staged in this session's working copy and reaches the repository only with a commit.
      """
    And tool 1's parameter "path" is described as "File or directory to delete"

  Scenario: mv takes a source and a target, both required
    Given the session offers "mv"
    Then tool 1 takes the parameters:
      | parameter |
      | from      |
      | to        |
    And tool 1's parameter "to" is described as "The new path, including the name"

  Scenario: search's query is required, its path and limit are not
    Given the session offers "search"
    Then tool 1 takes the parameters:
      | parameter |
      | query     |
    And tool 1's parameter "limit" is described as "How many passages (default 10)"

  Scenario: mkdir says making one that exists is not an error
    Given the session offers "mkdir"
    Then tool 1's parameter "path" is described as "Directory to make"

  Scenario: a forge tool names the repository by any path inside it
    Given the session offers "branch"
    Then tool 1's parameter "path" is described as "Any path inside the repository (the mount) this is about"

  Scenario Outline: every forge tool takes a path inside the repository
    Given the session offers "<tool>"
    Then tool 1 is "<tool>"
    And tool 1's parameter "path" is described as "Any path inside the repository (the mount) this is about"

    Examples:
      | tool    |
      | commit  |
      | pr      |
      | merge   |
      | tag     |
      | release |
