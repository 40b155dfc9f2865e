Feature: loop — the agent loop's rules of loop.json, and the job registry
  loop.json parallel: "Calls in one step run together, at most 4; a call that waits on the user
  (ask_user, plan_submit) runs alone; two calls on one file run in order." jobs: "One id sequence
  per session (job1, job2, …)". The wrap-up: "A tool call in that reply is not run."

  Scenario: five reads of five files: four together, then the fifth
    Given the step calls:
      | tool | file  |
      | read | a.txt |
      | read | b.txt |
      | read | c.txt |
      | read | d.txt |
      | read | e.txt |
    Then the calls run as "1 2 3 4, 5"
    And the prompt goes on to its next step

  Scenario: ask_user runs alone, and two calls on one file run in order
    Given the step calls:
      | tool     | file  |
      | read     | a.txt |
      | ask_user |       |
      | edit     | b.txt |
      | read     | b.txt |
      | grep     |       |
    Then the calls run as "1, 2, 3, 4 5"

  Scenario: a failing call is its result, and the prompt goes on
    Given the step calls:
      | tool | file  |
      | read | a.txt |
      | bash |       |
    And call 1 fails
    Then the calls run as "1 2"
    And the prompt goes on to its next step

  Scenario: the wrap-up keeps the tools and runs no call
    Given the session offers the tools "read", "bash" and "edit"
    When the "step limit" is reached and the reply calls "bash"
    Then the wrap-up message names the "step limit"
    And the tools sent are "read", "bash" and "edit"
    And no call of the reply runs

  Scenario: another model of a one-model connection is not started beside the prompt's
    Given the connection "local" holds one model at a time
    And the prompt runs "qwen" on "local"
    When a subagent is to start "llama" on "local"
    Then it is not started

  Scenario: the same model that serves one request at a time is not started beside a running subagent
    Given the connection "local" serves one request at a time
    And the connection "cloud" holds several models
    And the prompt runs "big" on "cloud"
    And a subagent runs "qwen" on "local"
    When a subagent is to start "qwen" on "local"
    Then it is not started

  Scenario: a model of another connection is started
    Given the connection "local" holds one model at a time
    And the connection "cloud" holds one model at a time
    And the prompt runs "big" on "cloud"
    When a subagent is to start "llama" on "local"
    Then it is started

  Scenario: the first request waits up to mcp_wait_ms, then goes without the slow server
    Given the MCP server "git" connects after 1200 ms
    And the MCP server "db" connects after 5000 ms
    And the MCP server "gone" never connects
    When the first request is made
    Then it goes at 3000 ms
    And its tools are those of "git"
    And "db" add their tools later

  Scenario: the ninth background command is refused while eight run
    When 8 background commands start
    And 1 background commands start
    And "job3" finishes
    And 1 background commands start
    Then event 1 starts "job1", "job2", "job3", "job4", "job5", "job6", "job7" and "job8"
    And event 2 is refused 1 times
    And event 3 wakes the session as a turn of its own marked machine
    And event 4 starts "job9"

  Scenario Outline: past jobs.running_max (8), bash refuses the rest
    When <n> background commands start
    Then event 1 is refused <refused> times

    Examples:
      | n  | refused |
      | 9  | 1       |
      | 12 | 4       |

  Scenario: the 51st finished job forgets the oldest
    When 51 background commands start and finish
    And job_output of "job1" is read
    And job_output of "job2" is read
    Then event 2 finds no such job
    And event 3 gives ""

  Scenario: the note carries the last 4000 characters of the unread output
    When 1 background commands start
    And "job1" prints "X" + "0123456789" x 400
    And "job1" finishes
    Then event 3 carries "0123456789" x 400
    And event 3 is marked as a finished command's

  Scenario: a job that ends while a prompt runs is a user message at the next step
    When a prompt starts
    And 1 background commands start
    And "job1" finishes
    Then event 3 wakes the session as a user message at the next step

  Scenario: a closed session keeps the note until it is resumed
    When 1 background commands start
    And the session is closed
    And "job1" finishes
    And the session is resumed
    Then event 3 is kept until the session is resumed
    And event 4 delivers "job1"

  Scenario: a subagent's own commands stop when it ends; the backstop ends it at 50 steps
    When a subagent starts
    And the subagent "job1" starts a background command
    And "job1" takes 60 steps
    Then event 3 ends it by the backstop after 50 steps
    And event 3 stops "job2"
    And event 3 is marked as a finished subagent's

  Scenario: deleting the session stops its running jobs
    When 2 background commands start
    And a subagent starts
    And "job1" finishes
    And the session is deleted
    Then event 4 stops "job2" and "job3"
