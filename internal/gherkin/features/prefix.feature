Feature: prefix — what each request of a session sends
  context.md §10: "A model's server keeps what it has read of a request and reuses it for the next
  one only as far as the two are the same from the first byte." So the system prompt is made once
  and resent unchanged, the tool list is fixed for the session, and what changes goes at the end,
  as a note on the next user message (loop.json `context.note`). A step is one When, counted from 1.

  Rule: 1 and 2 — the system prompt is made once per session, and nothing in it is a clock

    Scenario: the first user message carries the date; a tool step carries no note; a new date is said on the next user message
      Given a session that starts on "2026-11-04" in mode "manual"
      And it could meet "plan"
      And the tools "read" and "plan_submit"
      When the person sends a message
      And a tool step is requested
      And the person sends a message
      And the date becomes "2026-11-05"
      And a tool step is requested
      And the person sends a message
      Then every request sends system prompt 1 with the tools "read" and "plan_submit"
      And step 1 carries the note:
        """
        <session-note>
        Today is 2026-11-04.
        </session-note>
        """
      And step 2 carries no note
      And step 3 carries no note
      And step 4 answers nothing
      And step 5 carries no note
      And step 6 carries the note:
        """
        <session-note>
        Today is 2026-11-05.
        </session-note>
        """

    Scenario Outline: a change during the session is a note, never a new system prompt: <change>
      Given a session that starts on "2026-11-05" in mode "manual"
      And it could meet "plan"
      And the tools "read"
      When the person sends a message
      And <change>
      And the person sends a message
      Then every request sends system prompt 1 with the tools "read"

      Examples:
        | change                                                                  |
        | the date becomes "2026-11-06"                                           |
        | the person sets the mode to "plan"                                      |
        | the person changes the plan to "# Fix\n[t1] [ ] a"                       |
        | the person changes the memory to "Uses fish."                           |
        | the person chooses the personality "Be brief."                          |
        | the person changes the instruction file "/p/AGENTS.md" to "Build with make." |
        | the MCP server "tickets" connects, instructing "Name the ticket."       |

    Scenario: the summary is asked for with the same prompt and tools; after it the prompt is made again and the date said again
      Given a session that starts on "2026-11-05" in mode "edit"
      And it could meet "plan"
      And the tools "read" and "plan_submit"
      When the person sends a message
      And a tool step is requested
      And the summary is asked for
      And the person sends a message
      Then step 3 sends system prompt 1 with the tools "read" and "plan_submit"
      And step 3 asks:
        """
        Summarise the conversation below so it can be carried forward after the earlier turns are dropped from your context. This is a working record, not a report for a reader.

        Keep, under these headings and in this order:

        ## What we are doing
        The goal, and where we have got to.

        ## Decisions
        Anything settled, and why. A decision without its reason gets argued again.

        ## Facts established
        Names, numbers, versions, file paths, commands, URLs and identifiers, copied exactly. Do not round them, paraphrase them or reconstruct one from memory — if it is not in the transcript, leave it out.

        ## Files touched
        Each file read or changed that still matters, and what was done to it.

        ## Open threads
        What is unfinished, and what was about to happen next.

        Leave out pleasantries, retracted ideas and anything already superseded. Do not answer the conversation: you are recording it. Write in the language of the conversation, and stay under 600 words.
        """
      And step 4 sends system prompt 2 with the tools "read" and "plan_submit"
      And step 4 carries the note:
        """
        <session-note>
        Today is 2026-11-05.
        </session-note>
        """

    Scenario: a move to another model makes the prompt again, and the date said in the conversation still holds
      Given a session that starts on "2026-11-05" in mode "auto"
      And it could meet "plan"
      And the tools "read"
      When the person sends a message
      And the session moves to another model
      And the person sends a message
      Then step 1 sends system prompt 1 with the tools "read"
      And step 2 answers nothing
      And step 3 sends system prompt 2 with the tools "read"
      And step 3 carries no note

    Scenario Outline: the prompt is made again only where everything is read again anyway: <event>
      Given a session that starts on "2026-11-05" in mode "manual"
      And it could meet nothing
      And the tools "read"
      When the person sends a message
      And <event>
      And the person sends a message
      Then step 3 sends system prompt <system>

      Examples:
        | event                              | system |
        | the summary is asked for           | 2      |
        | the session moves to another model | 2      |
        | the session wraps up               | 1      |
        | a tool step is requested           | 1      |
        | the person sends a message         | 1      |

  Rule: 3 — what changes goes at the end, as a note on the next user message

    Scenario: a mode the person chose is said with the mode's text; one the approval set is not
      Given a session that starts on "2026-11-05" in mode "manual"
      And it could meet "plan"
      And the tools "read", "plan_write" and "plan_submit"
      When the person sends a message
      And the person sets the mode to "plan"
      And the person sends a message
      And the model sets the mode to "edit"
      And a tool step is requested
      And the person sends a message
      Then step 3 carries the note:
        """
        <session-note>
        The permission mode is now plan:
        Permission mode: plan. You are planning, not implementing. Read, search and investigate as much as you need, but change nothing: no file but a plan under .agent/plans, no command that is not already allowed, nothing saved to the library.

        Write the plan with plan_write, so that someone else could follow it: findings with file:line references, what will be true when it is done (objectives), and the work as phases of tasks in order, with the risks and how to verify it as the last phase. Ask with ask_user if a decision is the user's. When the plan is written, call plan_submit — that is how the user approves it, and after approval you carry on and implement it, keeping the plan current with plan_update.
        </session-note>
        """
      And step 5 carries no note
      And step 6 carries no note

    Scenario: what the person changed is said once, each change a block, in the order loop.json's note lists them
      Given a session that starts on "2026-11-05" in mode "manual"
      And it could meet "plan"
      And the tools "read"
      And its plan is "# Fix\n[t1] [ ] a"
      And its memory is "Prefers tabs."
      And its instruction file "/p/AGENTS.md" reads "Build with make."
      When the person sends a message
      And the person changes at once:
        | field                 | value                            |
        | mcp tickets           | Name the ticket in every commit. |
        | personality           | Be brief.                        |
        | file /p/src/AGENTS.md | Strict types.                    |
        | memory                | Uses fish.                       |
        | plan                  |                                  |
      And the person sends a message
      And the person sends a message
      Then step 3 carries the note:
        """
        <session-note>
        The person changed the plan; it is now:
        (none)

        The person changed what is remembered; it is now:
        Uses fish.

        /p/src/AGENTS.md changed; it now reads:
        Strict types.

        The person chose a different personality:
        Be brief.

        Instructions from an MCP server that connected since the session began:
        <server name="tickets">
        Name the ticket in every commit.
        </server>
        </session-note>
        """
      And step 4 carries no note

    Scenario: what the model changed itself is not said: its tool's result already said it
      Given a session that starts on "2026-11-05" in mode "manual"
      And it could meet "plan"
      And the tools "read"
      And its memory is "Prefers tabs."
      And its instruction file "/p/AGENTS.md" reads "Build with make."
      When the person sends a message
      And the model changes at once:
        | field           | value                                 |
        | plan            | # Fix\n## p1 P (pending)\n[t1] [ ] a  |
        | memory          | Prefers tabs.\n§\nUses fish.          |
        | file /p/AGENTS.md | Build with make; test with make test. |
      And a tool step is requested
      And the person sends a message
      Then step 3 carries no note
      And step 4 carries no note

    Scenario Outline: a change of one kind is one block: <change>
      Given a session that starts on "2026-11-05" in mode "manual"
      And it could meet "plan"
      And the tools "read"
      And its memory is "Prefers tabs."
      And its instruction file "/p/AGENTS.md" reads "Build with make."
      When the person sends a message
      And <change>
      And the person sends a message
      Then step 3 carries the note:
        """
        <session-note>
        <block>
        </session-note>
        """

      Examples:
        | change                                                                                  | block                                                                              |
        | the person changes the memory to "Uses fish."                                           | The person changed what is remembered; it is now:\nUses fish.                      |
        | the person changes the memory to ""                                                     | The person changed what is remembered; it is now:\n(none)                          |
        | the person changes the instruction file "/p/AGENTS.md" to "Build with make; test."      | /p/AGENTS.md changed; it now reads:\nBuild with make; test.                        |
        | the person removes the instruction file "/p/AGENTS.md"                                  | /p/AGENTS.md changed; it now reads:\n(none)                                        |
        | the person chooses the personality "Be brief."                                          | The person chose a different personality:\nBe brief.                               |
        | the person changes the plan to "# Fix\n[t1] [ ] a"                                      | The person changed the plan; it is now:\n# Fix\n[t1] [ ] a                          |
        | the MCP server "docs" connects, instructing "Search the docs first."                    | Instructions from an MCP server that connected since the session began:\n<server name="docs">\nSearch the docs first.\n</server> |
        | the date becomes "2026-11-06"                                                           | Today is 2026-11-06.                                                               |

    Scenario: a note waits for the next message that starts a turn
      Given a session that starts on "2026-11-05" in mode "manual"
      And it could meet "plan"
      And the tools "read"
      When the person sends a message
      And the person changes the memory to "Uses fish."
      And a tool step is requested
      And a tool step is requested
      And the person sends a message
      Then step 3 carries no note
      And step 4 carries no note
      And step 5 carries the note:
        """
        <session-note>
        The person changed what is remembered; it is now:
        Uses fish.
        </session-note>
        """

  Rule: 4 — the tool list is the same for the whole session

    Scenario Outline: a tool whose requirement can come and go is offered from the start, and answers its unavailable text while it is not met: <tool>
      Given a session that starts on "2026-11-05" in mode "manual"
      And it could meet "<requirement>"
      And it meets nothing now
      And the tools "read" and "<tool>"
      When the person sends a message
      And the model calls "<tool>"
      And the session now meets "<requirement>"
      And the model calls "<tool>"
      And the person sends a message
      Then every request sends system prompt 1 with the tools "read" and "<tool>"
      And step 2 answers "<unavailable>"
      And step 4 runs

      Examples:
        | tool    | requirement | unavailable                                                                                        |
        | show    | display     | Nothing can be shown now: this session has no screen to show a file on. Give the user the path instead. |
        | python  | page        | Python cannot run now: no open browser page is attached to this chat.                              |
        | commit  | forge       | No repository from a forge is open to this session, so there is nothing to commit here.            |
        | branch  | forge       | No repository from a forge is open to this session, so there is nothing to branch here.            |
        | merge   | forge       | No repository from a forge is open to this session, so there is nothing to merge here.             |
        | pr      | forge       | No repository from a forge is open to this session, so there is nothing to pr here.                |
        | tag     | forge       | No repository from a forge is open to this session, so there is nothing to tag here.               |
        | release | forge       | No repository from a forge is open to this session, so there is nothing to release here.           |

    Scenario: plan_submit is offered in every mode and answers its unavailable text outside plan mode
      Given a session that starts on "2026-11-05" in mode "manual"
      And it could meet "plan"
      And the tools "read", "plan_write" and "plan_submit"
      When the person sends a message
      And the model calls "plan_submit"
      And the person sets the mode to "plan"
      And the model calls "plan_submit"
      Then step 1 offers the tools "read", "plan_write" and "plan_submit"
      And step 2 answers "Not in plan mode: plan_submit is how a plan made in plan mode is put to the person for approval. Carry on with the work; keep the plan current with plan_update."
      And step 4 runs

    Scenario: a tool the session could never meet is left out of every request
      Given a session that starts on "2026-11-05" in mode "manual"
      And it could meet "plan"
      And the tools "read" and "show"
      When the person sends a message
      And a tool step is requested
      Then every request sends system prompt 1 with the tools "read"

    Scenario: the wrap-up keeps the session's tool list and prompt and carries no note; the next user message carries what changed meanwhile
      Given a session that starts on "2026-11-05" in mode "edit"
      And it could meet "plan"
      And the tools "read" and "plan_submit"
      When the person sends a message
      And a tool step is requested
      And the date becomes "2026-11-06"
      And the session wraps up
      And the person sends a message
      Then every request sends system prompt 1 with the tools "read" and "plan_submit"
      And step 4 carries no note
      And step 5 carries the note:
        """
        <session-note>
        Today is 2026-11-06.
        </session-note>
        """

    Scenario: a chat that leaves plan mode says plan_ended, its modes but plan having no text of their own
      Given a session that starts on "2026-11-05" in mode "plan"
      And the session is a chat
      And it could meet "plan"
      And the tools "read" and "plan_submit"
      When the person sends a message
      And the person sets the mode to "default"
      And the model calls "plan_submit"
      And the person sends a message
      Then step 3 answers "Not in plan mode: plan_submit is how a plan made in plan mode is put to the person for approval. Carry on with the work; keep the plan current with plan_update."
      And step 4 carries the note:
        """
        <session-note>
        Plan mode has ended: make the changes the work needs; nothing is refused for planning any more.
        </session-note>
        """

    Scenario: a chat, which does not resend earlier tool results, is told its own plan back, once
      Given a session that starts on "2026-11-05" in mode "plan"
      And the session is a chat
      And it could meet "plan"
      And the tools "read" and "plan_write"
      And its plan is ""
      When the person sends a message
      And the model changes the plan to "# Fix\n1. Read the loader."
      And a tool step is requested
      And the date becomes "2026-11-06"
      And the person sends a message
      And the person sends a message
      Then step 3 carries no note
      And step 5 carries the note:
        """
        <session-note>
        Today is 2026-11-06.

        Your plan, as your plan tools left it:
        # Fix
        1. Read the loader.
        </session-note>
        """
      And step 6 carries no note
