Feature: jobs — the note a session is given when its background work ends
  loop.json `jobs`: "Every such message begins with its mark, said rather than hidden: a model
  refuses an unmarked one as an injection (conformance/jobs.json gives the texts)." The words after
  the mark are the CLI's note.ts, which conformance/jobs.json fixes.

  Scenario: a finished command's note begins with its mark and carries the output not yet read
    Given a background command "npm test" with the id "job3"
    And it exited with 0
    And it ran for 5 seconds
    And its unread output is these lines:
      """
      ok 12 tests
      """
    When the job's note is made
    Then the note is:
      """
      [A background job you started has finished:]
      job3 (npm test) exited with 0 after 5s.
      Output you had not read:
      ok 12 tests
      """

  Scenario: a command stopped by a signal, with nothing unread, says so on the same line
    Given a background command "python -m http.server 8000" with the id "job1"
    And a signal stopped it
    And it ran for 125 seconds
    And it left no unread output
    Then the note is:
      """
      [A background job you started has finished:]
      job1 (python -m http.server 8000) stopped (SIGTERM) after 2m 05s. It printed nothing you had not read.
      """

  Scenario: a command is named by its first line
    Given a background command "make build\nmake test" with the id "job2"
    And it exited with 2
    And it ran for 7325 seconds
    And its unread output is "make: *** [test] Error 2\n"
    Then line 2 of the note is "job2 (make build) exited with 2 after 2h 02m."
    And the note has 4 lines

  Scenario Outline: durations are written in their two largest units, the second with two digits
    Given a background command "sleep" with the id "job1"
    And it exited with 0
    And it ran for <seconds> seconds
    And it left no unread output
    Then line 2 of the note is "job1 (sleep) exited with 0 after <duration>. It printed nothing you had not read."

    Examples:
      | seconds | duration |
      | 0       | 0s       |
      | 5       | 5s       |
      | 59      | 59s      |
      | 60      | 1m 00s   |
      | 65      | 1m 05s   |
      | 600     | 10m 00s  |
      | 3599    | 59m 59s  |
      | 3600    | 1h 00m   |
      | 7380    | 2h 03m   |

  Scenario Outline: a command's exit is its code, or the signal that stopped it
    Given a background command "make" with the id "job4"
    And <how>
    And it ran for 1 seconds
    And it left no unread output
    Then line 2 of the note is "job4 (make) <words> after 1s. It printed nothing you had not read."

    Examples:
      | how               | words             |
      | it exited with 0  | exited with 0     |
      | it exited with 1  | exited with 1     |
      | it exited with -1 | exited with -1    |
      | a signal stopped it | stopped (SIGTERM) |

  Scenario: a subagent that finished gives its report and a tail line with its counts
    Given a subagent "explore" with the id "job4" asked to "find the config loader"
    And it took 6 steps and 9 tool calls
    And it ended with the reason "stop"
    And it ran for 48 seconds
    And its report is "The loader is `src/config/load.ts:40`; it is called from `src/app.ts:120`."
    Then the note is:
      """
      [A subagent you started has finished:]
      job4 (explore: find the config loader) finished after 48s.
      The loader is `src/config/load.ts:40`; it is called from `src/app.ts:120`.

      [explore subagent · 6 steps · 9 tool calls]
      """

  Scenario Outline: how a subagent ended is said in its first line and, but for stop, in its tail
    Given a subagent "general" with the id "job5" asked to "add the migration"
    And it took 2 steps and 3 tool calls
    And it ended with the reason "<reason>"
    And it ran for 600 seconds
    And its report is "Done in part."
    Then line 2 of the note is "job5 (general: add the migration) <ended> after 10m 00s."
    And line 5 of the note is "[general subagent · 2 steps · <tail>]"

    Examples:
      | reason  | ended                     | tail                            |
      | stop    | finished                  | 3 tool calls                    |
      | stopped | was stopped               | 3 tool calls · ended: stopped   |
      | steps   | stopped at its step limit | 3 tool calls · ended: steps     |
      | budget  | stopped at its budget     | 3 tool calls · ended: budget    |

  Scenario: a subagent that failed names the error in its tail, and an empty report is said
    Given a subagent "explore" with the id "job8" asked to "check the API"
    And it took 1 steps and 0 tool calls
    And it failed with the error "connection refused"
    And it ran for 2 seconds
    And it returned no report
    Then the note is:
      """
      [A subagent you started has finished:]
      job8 (explore: check the API) failed after 2s.
      (the subagent returned no report)

      [explore subagent · 1 step · 0 tool calls · ended: error — connection refused]
      """

  Scenario Outline: a count of one is a step and a tool call, any other count steps and tool calls
    Given a subagent "explore" with the id "job9" asked to "look"
    And it took <steps> steps and <tools> tool calls
    And it ended with the reason "stop"
    And it ran for 3 seconds
    And its report is "Seen."
    Then line 5 of the note is "[explore subagent · <counted>]"

    Examples:
      | steps | tools | counted                 |
      | 1     | 1     | 1 step · 1 tool call    |
      | 0     | 2     | 0 steps · 2 tool calls  |
      | 12    | 1     | 12 steps · 1 tool call  |

  Scenario: a subagent's worktree follows its tail on a line of its own
    Given a subagent "general" with the id "job6" asked to "rename the module"
    And it took 8 steps and 14 tool calls
    And it ended with the reason "stop"
    And it ran for 90 seconds
    And its report is "Renamed in 12 files."
    And its worktree summary is "Branch lembas/general-rename-a1b2c3: 1 commit, 12 files changed."
    Then the note is:
      """
      [A subagent you started has finished:]
      job6 (general: rename the module) finished after 1m 30s.
      Renamed in 12 files.

      [general subagent · 8 steps · 14 tool calls]
      [worktree] Branch lembas/general-rename-a1b2c3: 1 commit, 12 files changed.
      """

  Scenario: a subagent's message to the main agent names the job and what it was asked
    Given a message from the subagent "explore" with the id "job4" asked to "find the config loader":
      """
      There are two loaders; which one — the YAML one or the env one?
      """
    Then the note is:
      """
      [A message from a subagent you started:]
      job4 (explore: find the config loader):
      There are two loaders; which one — the YAML one or the env one?
      """

  Scenario: the main agent's message to a subagent is its mark and the text
    Given a message to the subagent:
      """
      The YAML one. Ignore the env loader.
      """
    Then the note is:
      """
      [The main agent sent this while you were working — take it into account from here:]
      The YAML one. Ignore the env loader.
      """
