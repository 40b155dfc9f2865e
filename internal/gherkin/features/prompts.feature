Feature: prompts — the text the model is given of the spec's prompt files
  The harness spec's prompt files (prompts/agents/*.md, prompts/blocks/*.md) each begin with a
  comment to whoever maintains them; the model is given what follows it, each {{variable}} filled.
  prompts/blocks/subagent.md: the subagent's standing, "said once at the end of its system prompt
  in place of the mode text".

  Scenario: the read-only researcher's own instructions, without the file's comment
    Given the prompt "agents/explore.md"
    Then the model is given:
      """
      You can read, search and fetch, but not change anything. Look widely — several searches in one step when they are independent — then report what you found, not what you did: the answer first, then the evidence as file:line references.
      """

  Scenario: a subagent started as the general agent: its name and its own instructions fill the block
    Given the subagent block of the agent "general"
    Then the model is given:
      """
      You are the "general" subagent. You work for the main agent, not for the user directly, on one task it gave you; you cannot ask the user anything. Do the task completely, check it, and report what you changed and how you verified it.
      Your final reply is your report to the main agent — make it complete on its own: the result, then the evidence (file:line), then anything you could not settle.
      """

  Scenario: in plan mode the read-only sentence follows the report's last line
    Given the subagent block of the agent "explore"
    And the variable "read_only" is " Change nothing: this is plan mode."
    Then line 2 of the text is "Your final reply is your report to the main agent — make it complete on its own: the result, then the evidence (file:line), then anything you could not settle. Change nothing: this is plan mode."

  Scenario: the file system a chat works in, every variable given
    Given the prompt "blocks/workspace.md"
    And the variables:
      | variable     | value                                   |
      | start        | `/home/ana`                             |
      | view         | /home/ana (stage), /shared (read-only)  |
      | repositories | No repository is mounted here.          |
      | show         | Open what the user should see with show. |
      | python       | Python runs in the user's browser.      |
    Then line 1 of the text is "# Files"
    And line 2 of the text is "- You work in the user's file system, through the file tools. Relative paths start at `/home/ana`; absolute paths start at `/`."
    And line 3 of the text is "- What this session can reach, and how: /home/ana (stage), /shared (read-only). Nothing else exists here. A path below one of these is reached by its full path; a directory above one that is not itself listed cannot be listed, read or written."
    And line 6 of the text is "- No repository is mounted here."
    And line 9 of the text is "- Python runs in the user's browser."

  Scenario Outline: each built-in agent's own instructions start where the block says the user cannot be asked
    Given the subagent block of the agent "<agent>"
    Then line 1 of the text is "You are the \"<agent>\" subagent. You work for the main agent, not for the user directly, on one task it gave you; you cannot ask the user anything. <first>"

    Examples:
      | agent   | first                                                                                   |
      | general | Do the task completely, check it, and report what you changed and how you verified it. |
      | explore | You can read, search and fetch, but not change anything. Look widely — several searches in one step when they are independent — then report what you found, not what you did: the answer first, then the evidence as file:line references. |

  Scenario: a value is put in as it is, never filled again
    Given the prompt "blocks/subagent.md"
    And the variables:
      | variable     | value                        |
      | name         | notes                        |
      | instructions | Never write {{name}} in it. |
      | report       |                              |
      | read_only    |                              |
    Then line 1 of the text is "You are the \"notes\" subagent. You work for the main agent, not for the user directly, on one task it gave you; you cannot ask the user anything. Never write {{name}} in it."

  Scenario: how tool results are kept short, told in a session that has recall
    Given the prompt "blocks/context.md"
    Then line 1 of the text is "# Tool results"
    And line 2 of the text is "- Every tool result starts with its id in brackets, like `[#0012]`. A read's bracket also says the path, the lines shown, the file's length and a short hash of its content: `[#0012 src/app.ts lines 1-200 of 340 sha 1c9e04ab]`."
