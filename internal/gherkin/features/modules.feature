Feature: modules — rule modules loaded by the path the agent touches
  lembas-check's own area, from seeds/004 ("Project instruction modules"); its texts are cut from
  the seed into extra/modules.json. Rule modules are .elowen/rules/**/*.md; nested instruction
  files are those of the touched folders below the root. Each module is sent whole, as
  <instruction_module path="…">CONTENT</instruction_module>. A step is one When, counted from 1.

  Background:
    Given the project root is "/project"

  Scenario: unconditional modules ride the system prompt at spawn, after the root file, by relative path
    Given the file "/project/AGENTS.md" holds "Root rules.\n"
    And the file "/project/.elowen/rules/style.md" holds "# Style\nUse tabs.\n"
    And the file "/project/.elowen/rules/empty-front.md" holds "---\n---\n# Docs\nKeep docs short.\n"
    And the file "/project/.elowen/rules/team/backend.md" holds "# Backend\nLog with a code.\n"
    And the file "/project/.elowen/rules/api.md" holds "---\npaths:\n  - \"src/api/**/*.ts\"\n---\n# API rules\n- Validate endpoint inputs.\n- Update the contract tests.\n"
    When the session spawns
    And the next request is made
    Then step 1 loads the root file "AGENTS.md"
    And step 1 loads the unconditional modules:
      | relPath                        | sha256                                                           |
      | .elowen/rules/empty-front.md   | 99852f8ffd73b210f1685b5e877373824d2e6976ef0f53609f65e16449dfb4c4 |
      | .elowen/rules/style.md         | c6f4d6bc0cd0c3855a07bcad7ca8c4a87c818baf7abdd77b63b16a2155a36687 |
      | .elowen/rules/team/backend.md  | 33b8b41d35e81e8edf8dbf662cb7ec8519f76af088821f52d82713087d63a31f |
    And step 1 diagnoses nothing
    And step 2 appends nothing
    And step 2 diagnoses nothing

  Scenario: a conditional module activates on the request after the touch, once
    Given the file "/project/.elowen/rules/api.md" holds "---\npaths:\n  - \"src/api/**/*.ts\"\n  - \"tests/api/**/*.ts\"\n---\n# API rules\n- Validate endpoint inputs.\n- Update the contract tests.\n"
    When the agent touches "/project/src/api/users.ts"
    And the next request is made
    And the next request is made
    And the agent touches "/project/tests/api/users.ts"
    And the next request is made
    Then step 1 answers nothing
    And step 2 appends 1 modules
    And module 1 of step 2 is:
      """
      <instruction_module path="/project/.elowen/rules/api.md">
      # API rules
      - Validate endpoint inputs.
      - Update the contract tests.

      </instruction_module>
      """
    And step 2 records the instructions:
      | relPath              | sha256                                                           | supersedes |
      | .elowen/rules/api.md | 508f11162dda29c7361ea107898c371f317aad57a9f8d4fb4f8c1bb60524214b | null       |
    And step 3 appends nothing
    And step 5 appends nothing

  Scenario Outline: the glob dialect: * within a segment, ** across segments, ? one character — <glob> against <touched>
    Given the file "/project/.elowen/rules/a.md" holds "---\npaths:\n  - \"<glob>\"\n---\nA\n"
    When the agent touches "/project/<touched>"
    And the next request is made
    Then step 2 appends <count> modules

    Examples:
      | glob         | touched        | count |
      | src/*.ts     | src/x.ts       | 1     |
      | src/*.ts     | src/lib/x.ts   | 0     |
      | src/**/*.ts  | src/lib/x.ts   | 1     |
      | src/**/*.ts  | src/a/b/c/x.ts | 1     |
      | docs/?.md    | docs/a.md      | 1     |
      | docs/?.md    | docs/ab.md     | 0     |
      | **/*.go      | main.go        | 1     |
      | *.md         | README.md      | 1     |
      | *.md         | docs/x.md      | 0     |

  Scenario: resolver order — nested instruction files shallow to deep, then the matching rules by relative path
    Given the file "/project/AGENTS.md" holds "Root rules.\n"
    And the file "/project/src/AGENTS.md" holds "src rules\n"
    And the file "/project/src/api/AGENTS.override.md" holds "api override\n"
    And the file "/project/src/api/AGENTS.md" holds "not this one\n"
    And the file "/project/.elowen/rules/z-general.md" holds "---\npaths:\n  - \"src/**\"\n---\ngeneral\n"
    And the file "/project/.elowen/rules/a-narrow.md" holds "---\npaths:\n  - \"src/api/*.ts\"\n---\nnarrow\n"
    When the agent touches "/project/src/api/users.ts"
    And the next request is made
    Then step 2 records the instructions:
      | relPath                    | sha256                                                           | supersedes |
      | src/AGENTS.md              | ab9c9e492bcf68662a7beb412e258ea925cc91cb40f9458c58f2f7c060c2b8d5 | null       |
      | src/api/AGENTS.override.md | a9017da9c5ba031cfec82532b7f5770a0ad0f556e80a33012e59c2ed988a6752 | null       |
      | .elowen/rules/a-narrow.md  | 42607e58fdc09b32cdb8ebe2e5746a080c96fa8b542ebcad8114d4c69b4204e4 | null       |
      | .elowen/rules/z-general.md | b5365e3d6f3f08d52a4a02857764841fbd996e7852d0e62346c81cbf48a44856 | null       |
    And module 1 of step 2 is:
      """
      <instruction_module path="/project/src/AGENTS.md">
      src rules

      </instruction_module>
      """

  Scenario Outline: a module whose frontmatter is invalid is refused with a diagnostic and never promoted: <why>
    Given the file "/project/.elowen/rules/bad.md" holds "---\n<frontmatter>\n---\nScoped rules.\n"
    When the session spawns
    And the agent touches "/project/src/x.ts"
    And the next request is made
    Then step 1 loads no unconditional module
    And step 1 diagnoses:
      | path                 | code |
      | .elowen/rules/bad.md | null |
    And step 3 appends nothing
    And step 3 diagnoses:
      | path                 | code |
      | .elowen/rules/bad.md | null |

    Examples:
      | why                      | frontmatter                            |
      | another key              | path:\n  - \"src/**\"                  |
      | a key beside paths       | paths:\n  - \"src/**\"\nowner: api-team |
      | invalid YAML             | paths: [\"src/**\"                     |
      | paths not a list         | paths: \"src/**\"                      |
      | an empty list            | paths: []                              |
      | a leading /              | paths:\n  - \"/src/**\"                |
      | a .. segment             | paths:\n  - \"src/../secret/**\"       |

  Scenario: a changed module is a new version, appended at the next matching access marked supersedes
    Given the file "/project/.elowen/rules/api.md" holds "---\npaths:\n  - \"src/**\"\n---\nUse v1 of the API.\n"
    When the agent touches "/project/src/a.ts"
    And the next request is made
    And the file "/project/.elowen/rules/api.md" changes to "---\npaths:\n  - \"src/**\"\n---\nUse v2 of the API.\n"
    And the next request is made
    And the agent touches "/project/src/b.ts"
    And the next request is made
    Then step 4 appends nothing
    And module 1 of step 6 is:
      """
      <instruction_module path="/project/.elowen/rules/api.md" supersedes="earlier version">
      Use v2 of the API.

      </instruction_module>
      """
    And step 6 records the instructions:
      | relPath              | sha256                                                           | supersedes                                                       |
      | .elowen/rules/api.md | 7bda928dbc00518780014fe73bc39350dc8fd74a53d95daf6caede585dbaa183 | 888a2ac0aa5f2ebabab3d67f2108cb62ca8bb19b2fe4f1ff1287faa99cbd6040 |

  Scenario: after compaction drops the record, the next matching trigger loads the module again, as new
    Given the file "/project/.elowen/rules/api.md" holds "---\npaths:\n  - \"src/**\"\n---\nUse v1 of the API.\n"
    When the agent touches "/project/src/a.ts"
    And the next request is made
    And the agent touches "/project/src/a.ts"
    And the next request is made
    And the session is compacted
    And the agent touches "/project/src/b.ts"
    And the next request is made
    Then step 4 appends nothing
    And step 5 answers nothing
    And step 7 records the instructions:
      | relPath              | sha256                                                           | supersedes |
      | .elowen/rules/api.md | 888a2ac0aa5f2ebabab3d67f2108cb62ca8bb19b2fe4f1ff1287faa99cbd6040 | null       |

  Scenario: nothing counts as loaded unless the append succeeded: a failed append is tried again at the next request
    Given the file "/project/.elowen/rules/api.md" holds "---\npaths:\n  - \"src/**\"\n---\nUse v1 of the API.\n"
    When the agent touches "/project/src/a.ts"
    And the next request's append fails
    And the next request is made
    And the next request is made
    Then step 2 appends nothing
    And step 2 diagnoses:
      | path | code                               |
      |      | brain.instruction_activation_failed |
    And step 3 appends 1 modules
    And step 4 appends nothing

  Scenario: a module one byte over 256 KiB is refused whole
    Given the file "/project/.elowen/rules/big.md" is "# Big\n" padded with "a" to 262145 bytes
    When the session spawns
    Then step 1 loads no unconditional module
    And step 1 diagnoses:
      | path                 | code                         |
      | .elowen/rules/big.md | brain.context_file_oversized |

  Scenario: a module of exactly 256 KiB loads
    Given the file "/project/.elowen/rules/at-cap.md" is "# At the cap\n" padded with "a" to 262144 bytes
    When the session spawns
    Then step 1 loads the unconditional modules:
      | relPath                 | sha256                                                           |
      | .elowen/rules/at-cap.md | bd95603a50098aa673347b586b23eaefbc897346e4415fde33c8ff27d767f3b5 |
    And step 1 diagnoses nothing

  Scenario: a touched path outside the Project root contributes nothing and is not diagnosed
    Given the file "/project/.elowen/rules/api.md" holds "---\npaths:\n  - \"src/**\"\n---\nUse v1 of the API.\n"
    When the agent touches "/projectX/src/a.ts", "/elsewhere/src/a.ts" and "/project/../src/a.ts"
    And the next request is made
    Then step 2 appends nothing
    And step 2 diagnoses nothing

  Scenario: a rule module linked out of the Project is refused with the escape code and not loaded
    Given the file "/home/me/shared-rules.md" holds "shared\n"
    And the link "/project/.elowen/rules/shared.md" to "/home/me/shared-rules.md"
    When the session spawns
    Then step 1 loads no unconditional module
    And step 1 diagnoses:
      | path                    | code                            |
      | .elowen/rules/shared.md | brain.instruction_module_escape |
