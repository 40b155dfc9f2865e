Feature: instructions — the instruction files a session starts with
  filesystem.md, "Instruction files, stacked": "Instruction files are collected from the boundary
  down to the start directory, outermost first: every directory on the way may contribute one,
  and all of them go to the model — the root's, then a section's, then a repository's."

  Background:
    Given the files:
      | path                    |
      | /AGENTS.md              |
      | /sec/AGENTS.md          |
      | /sec/repo/CLAUDE.md     |
      | /sec/repo/src/AGENTS.md |

  Scenario: every directory from the boundary down to the start directory gives its file, outermost first
    Given the boundary is "/"
    And the session starts in "/sec/repo/src"
    When the session starts
    Then the instruction files are, in order:
      | /AGENTS.md              |
      | /sec/AGENTS.md          |
      | /sec/repo/CLAUDE.md     |
      | /sec/repo/src/AGENTS.md |

  Scenario: a directory below the start directory gives nothing at the start
    Given the boundary is "/"
    And the session starts in "/sec/repo"
    Then the instruction files are, in order:
      | /AGENTS.md          |
      | /sec/AGENTS.md      |
      | /sec/repo/CLAUDE.md |

  Scenario: nothing above the boundary is collected
    Given the boundary is "/sec"
    And the session starts in "/sec/repo"
    Then the instruction files are, in order:
      | /sec/AGENTS.md      |
      | /sec/repo/CLAUDE.md |

  Scenario Outline: a start directory outside the boundary is read as the boundary
    Given the boundary is "/sec"
    And the session starts in "<start>"
    Then the only instruction file is "/sec/AGENTS.md"

    Examples:
      | start            |
      | /other           |
      | /                |
      | /secret          |

  Scenario: a file granted on its own is loaded, and one in a passage is not while the walk goes on below it
    Given the files:
      | path                 |
      | /AGENTS.md           |
      | /Dir1/AGENTS.md      |
      | /Dir1/Dir3/AGENTS.md |
    And the grants:
      | path        | level |
      | /AGENTS.md  | ro    |
      | /Dir1/Dir3  | stage |
    And the boundary is "/"
    And the session starts in "/Dir1/Dir3"
    Then the instruction files are, in order:
      | /AGENTS.md           |
      | /Dir1/Dir3/AGENTS.md |

  Scenario: a granted start directory under passages loads its own file only
    Given the files:
      | path             |
      | /AGENTS.md       |
      | /a/AGENTS.md     |
      | /a/b/AGENTS.md   |
    And the grants:
      | path | level |
      | /a/b | ro    |
    And the boundary is "/"
    And the session starts in "/a/b"
    Then the only instruction file is "/a/b/AGENTS.md"

  Scenario Outline: within one directory AGENTS.md comes before CLAUDE.md, and never both
    Given the files:
      | path      |
      | <first>   |
      | <second>  |
    And the boundary is "/"
    And the session starts in "/x"
    Then the only instruction file is "<loaded>"

    Examples:
      | first        | second        | loaded       |
      | /x/AGENTS.md | /x/CLAUDE.md  | /x/AGENTS.md |
      | /x/CLAUDE.md | /x/AGENTS.md  | /x/AGENTS.md |
      | /x/CLAUDE.md | /x/README.md  | /x/CLAUDE.md |
      | /x/AGENTS.md | /x/agents.txt | /x/AGENTS.md |

  Scenario: a file taken away under a granted directory lets the next name count
    Given the files:
      | path         |
      | /x/AGENTS.md |
      | /x/CLAUDE.md |
    And the grants:
      | path         | level |
      | /            | ro    |
      | /x/AGENTS.md | none  |
    And the boundary is "/"
    And the session starts in "/x"
    Then the only instruction file is "/x/CLAUDE.md"

  Scenario: a directory named AGENTS.md is not a file and does not count
    Given the files:
      | path          |
      | /x/AGENTS.md/ |
      | /x/CLAUDE.md  |
    And the boundary is "/"
    And the session starts in "/x"
    Then the only instruction file is "/x/CLAUDE.md"

  Scenario Outline: names are case-sensitive, and other files are not instruction files
    Given the files:
      | path     |
      | <file>   |
    And the boundary is "/"
    And the session starts in "/"
    Then no instruction file is loaded

    Examples:
      | file        |
      | /README.md  |
      | /agents.md  |
      | /Claude.md  |

  Scenario: with nothing granted nothing is loaded
    Given nothing is granted
    And the boundary is "/"
    And the session starts in "/sec/repo"
    Then no instruction file is loaded
