Feature: context — what each step of a session inserts into the conversation
  context.md, "The one rule": "Every measure acts when a result is inserted. Nothing already sent
  to the model is ever rewritten." The texts are loop.json `context`; the read tool's body, the
  compaction table's layout and a deleted file's bracket are vendored in extra/context.json.
  Each When is one step of a session and names the result it gives by its id.

  Rule: §1 every result has an id, first in brackets; a read's bracket says more

    Scenario: a read's bracket names the path as the call gave it, the lines shown, the file's length and its hash
      Given the file "src/app.ts" holds these lines:
        """
        import a
        import b
        """
      When #0001 reads "src/app.ts"
      Then #0001 inserts:
        """
        [#0001 src/app.ts lines 1-2 of 2 sha 1973c77b]
        1: import a
        2: import b
        """

    Scenario: an empty file's bracket says empty
      Given the file "notes.txt" is empty
      When #0013 reads "notes.txt"
      Then #0013 inserts:
        """
        [#0013 notes.txt empty sha e3b0c442]
        (empty file)
        """

    Scenario: any other result is its id in brackets, a newline, and the result
      When #0002 is "bash" {"command": "echo hi"} answering "hi"
      Then #0002 inserts "[#0002]\nhi"

    Scenario Outline: a read of part of a file says which lines, and the note says how to read on
      Given the file "notes.md" holds the lines "line" 1 to 10
      When #b001 reads <limit> lines of "notes.md" from line <offset>
      Then the bracket of #b001 is "[#b001 notes.md lines <from>-<to> of 10 sha e71d970d]"
      And the last line of #b001 is "<last>"

      Examples:
        | offset | limit | from | to | last                                       |
        | 1      | 5     | 1    | 5  | (5 more lines — read again with offset 6)  |
        | 4      | 3     | 4    | 6  | (4 more lines — read again with offset 7)  |
        | 8      | 5     | 8    | 10 | 10: line 10                                |
        | 1      | 10    | 1    | 10 | 10: line 10                                |

    Scenario: the lines shown are numbered, and the note follows a blank line
      Given the file "notes.md" holds the lines "line" 1 to 10
      When #b001 reads 5 lines of "notes.md"
      Then #b001 inserts:
        """
        [#b001 notes.md lines 1-5 of 10 sha e71d970d]
        1: line 1
        2: line 2
        3: line 3
        4: line 4
        5: line 5

        (5 more lines — read again with offset 6)
        """

  Rule: §2 an unchanged re-read inside an earlier full read still in the request is a stub

    Scenario: a re-read of an unchanged file is a stub naming the earlier result and its lines
      Given the file "src/a.ts" holds these lines:
        """
        const a = 1
        export { a }
        """
      When #a001 reads "src/a.ts"
      And #a002 reads "src/a.ts"
      Then #a002 inserts "[#a002 src/a.ts lines 1-2 of 2 sha 583e86b4] Unchanged since #a001, which already shows lines 1-2."

    Scenario Outline: a re-read is a stub only when the lines asked for lie wholly inside the earlier read's
      Given the file "notes.md" holds the lines "line" 1 to 10
      When #b001 reads 5 lines of "notes.md"
      And #b002 reads <limit> lines of "notes.md" from line <offset>
      Then the bracket of #b002 is "<first line>"

      Examples:
        | offset | limit | first line                                                                                      |
        | 2      | 3     | [#b002 notes.md lines 2-4 of 10 sha e71d970d] Unchanged since #b001, which already shows lines 1-5. |
        | 1      | 5     | [#b002 notes.md lines 1-5 of 10 sha e71d970d] Unchanged since #b001, which already shows lines 1-5. |
        | 5      | 1     | [#b002 notes.md lines 5-5 of 10 sha e71d970d] Unchanged since #b001, which already shows lines 1-5. |
        | 4      | 3     | [#b002 notes.md lines 4-6 of 10 sha e71d970d]                                                   |
        | 6      | 2     | [#b002 notes.md lines 6-7 of 10 sha e71d970d]                                                   |
        | 1      | 6     | [#b002 notes.md lines 1-6 of 10 sha e71d970d]                                                   |

    Scenario: a stub points at a full result, never at another stub
      Given the file "notes.md" holds the lines "line" 1 to 10
      When #b001 reads 5 lines of "notes.md"
      And #b002 reads 3 lines of "notes.md" from line 2
      And #b003 reads 2 lines of "notes.md" from line 2
      Then #b002 inserts "[#b002 notes.md lines 2-4 of 10 sha e71d970d] Unchanged since #b001, which already shows lines 1-5."
      And #b003 inserts "[#b003 notes.md lines 2-3 of 10 sha e71d970d] Unchanged since #b001, which already shows lines 1-5."

    Scenario: a file this session changed has another hash and is read in full; the next re-read is a stub of that read
      Given the file "a.py" holds these lines:
        """
        x = 1
        y = 2
        z = 3
        """
      When #c001 reads "a.py"
      And #c002 edits "a.py" to these lines:
        """
        x = 1
        y = 20
        z = 3
        """
      And #c003 reads "a.py"
      And #c004 reads "a.py"
      Then #c003 inserts:
        """
        [#c003 a.py lines 1-3 of 3 sha a6a8e52b]
        1: x = 1
        2: y = 20
        3: z = 3
        """
      And #c004 inserts "[#c004 a.py lines 1-3 of 3 sha a6a8e52b] Unchanged since #c003, which already shows lines 1-3."

    Scenario: a file changed from outside is read in full, and the same content in another file is no stub
      Given the file "a.txt" holds "one\n"
      And the file "b.txt" holds "one\n"
      When #d001 reads "a.txt"
      And the file "a.txt" now holds "one\ntwo\n"
      And #d002 reads "a.txt"
      And #d003 reads "b.txt"
      Then #d002 inserts "[#d002 a.txt lines 1-2 of 2 sha c3f9c8c2]\n1: one\n2: two"
      And #d003 inserts "[#d003 b.txt lines 1-1 of 1 sha 2c8b08da]\n1: one"

    Scenario: a file is known by its absolute path, and each bracket names it as its call did
      Given the session starts in "/work"
      And the file "src/a.ts" holds "export const a = 1\n"
      When #0001 reads "src/a.ts"
      And #0002 reads "/work/src/a.ts"
      And #0003 reads "./lib/../src/a.ts"
      Then #0002 inserts "[#0002 /work/src/a.ts lines 1-1 of 1 sha a3b135bc] Unchanged since #0001, which already shows lines 1-1."
      And #0003 inserts "[#0003 ./lib/../src/a.ts lines 1-1 of 1 sha a3b135bc] Unchanged since #0001, which already shows lines 1-1."

    Scenario: after a reply begins, a read is in full: a stub names only a result the request carries
      Given the file "a.md" holds "alpha\n"
      When #6001 reads "a.md"
      And #6002 is "glob" {"pattern": "*.md"} answering "a.md"
      And a new reply begins
      And #6003 reads "a.md"
      And #6004 is "glob" {"pattern": "*.md"} answering "a.md"
      And #6005 reads "a.md"
      Then every reply inserts nothing
      And #6003 inserts "[#6003 a.md lines 1-1 of 1 sha b6a98d9c]\n1: alpha"
      And #6004 inserts "[#6004]\na.md"
      And #6005 inserts "[#6005 a.md lines 1-1 of 1 sha b6a98d9c] Unchanged since #6003, which already shows lines 1-1."

  Rule: §3 large output is capped on the way in: head, the elided line, tail

    Background:
      Given the cap:
        | limit      | value |
        | max_lines  | 6     |
        | max_chars  | 40000 |
        | head_lines | 2     |
        | head_chars | 20000 |
        | tail_lines | 2     |
        | tail_chars | 10000 |

    Scenario: an output over max_lines keeps its head and its tail with one line between
      When #e001 is "bash" {"command": "seq 10"} answering the numbers 1 to 10, one a line
      Then #e001 inserts:
        """
        [#e001]
        1
        2
        [6 lines elided, full output #e001]
        9
        10
        """

    Scenario Outline: an output of at most max_lines lines is inserted whole
      When #e001 is "bash" {"command": "seq <n>"} answering the numbers 1 to <n>, one a line
      Then #e001 inserts <lines> lines
      And the last line of #e001 is "<last>"

      Examples:
        | n | lines | last |
        | 5 | 6     | 5    |
        | 6 | 7     | 6    |
        | 7 | 6     | 7    |

    Scenario: reads are not capped this way: a read has its own window
      Given the file "notes.md" holds the lines "line" 1 to 10
      When #e001 reads "notes.md"
      Then #e001 inserts 11 lines
      And the last line of #e001 is "10: line 10"

    Scenario: recall shows a stored result in full, not capped, from an offset
      When #e001 is "bash" {"command": "seq 10"} answering the numbers 1 to 10, one a line
      And #e002 recalls 2 lines of "#e001" from line 3
      And #e003 recalls "e001"
      Then #e002 inserts "[#e002 recall #e001 lines 3-4 of 10]\n3\n4"
      And #e003 inserts:
        """
        [#e003 recall #e001 lines 1-10 of 10]
        1
        2
        3
        4
        5
        6
        7
        8
        9
        10
        """

  Rule: §3 a first line longer than head_chars is cut

    Background:
      Given the cap:
        | limit      | value |
        | max_lines  | 400   |
        | max_chars  | 50    |
        | head_lines | 200   |
        | head_chars | 20    |
        | tail_lines | 100   |
        | tail_chars | 10    |

    Scenario: the cut first line ends " […cut]" and the elided line follows it whatever it counts
      When #5001 is "bash" {"command": "cat min.js"} answering "x" x 100
      Then #5001 inserts "[#5001]\n" + "x" x 20 + " […cut]\n[0 lines elided, full output #5001]"

    Scenario: an output over max_chars keeps the whole lines that fit the head and the tail
      When #5002 is "bash" {"command": "cat log"} answering "first line\n" + "y" x 60 + "\nlast"
      Then #5002 inserts "[#5002]\nfirst line\n[1 lines elided, full output #5002]\nlast"

  Rule: §4 recall

    Scenario: an id the session never gave is no stored result
      When the session is compacted
      And #3001 recalls "#ffff"
      Then the compaction inserts nothing
      And #3001 inserts "[#3001] No stored result #ffff in this session."

  Rule: §5 edits answer with the diff

    Scenario: an edit answers the unified diff of the change under the new content's hash
      Given the file "a.py" holds these lines:
        """
        x = 1
        y = 2
        z = 3
        """
      When #c002 edits "a.py" to these lines:
        """
        x = 1
        y = 20
        z = 3
        """
      Then #c002 inserts:
        """
        [#c002 a.py sha a6a8e52b]
        @@ -1,3 +1,3 @@
         x = 1
        -y = 2
        +y = 20
         z = 3
        """

    Scenario: the diff has three lines of context and hunks only
      Given the file "notes.md" holds the lines "line" 1 to 10
      When #0002 edits "notes.md" to "line 1\nline 2\nline 3\nline 4\nline five\nline 6\nline 7\nline 8\nline 9\nline 10\n"
      Then #0002 inserts:
        """
        [#0002 notes.md sha 25ff04b0]
        @@ -2,7 +2,7 @@
         line 2
         line 3
         line 4
        -line 5
        +line five
         line 6
         line 7
         line 8
        """

    Scenario: a new file written answers how many lines it has — the model wrote the content and has it
      When #4001 writes the new file "new.md" with these lines:
        """
        # Title

        Text.
        """
      Then #4001 inserts "[#4001 new.md sha fd9dba9b] Created, 3 lines."

    Scenario: a deleted file is its id, its path and deleted
      Given the file "old.md" holds "gone\n"
      When #0024 deletes "old.md"
      Then #0024 inserts "[#0024 old.md deleted]"

  Rule: §6 the same search or listing twice is a stub; other tools never are

    Scenario Outline: a repeated <tool> with the same arguments and the same result is "Same result as"
      When #f001 is "<tool>" {"pattern": "*.md"} answering "a.md\nb.md"
      And #f002 is "<tool>" {"pattern": "*.md"} answering "a.md\nb.md"
      Then #f002 inserts "[#f002] Same result as #f001."

      Examples:
        | tool   |
        | list   |
        | glob   |
        | grep   |
        | search |

    Scenario Outline: a repeated <tool> is a result again
      When #1001 is "<tool>" {"command": "git status"} answering "nothing to commit"
      And #1002 is "<tool>" {"command": "git status"} answering "nothing to commit"
      Then #1002 inserts "[#1002]\nnothing to commit"

      Examples:
        | tool   |
        | bash   |
        | python |

    Scenario: the call is run again and compared: other arguments, or another result, is a full result
      When #f001 is "list" {"path": "src"} answering "src/\n  a.ts\n  b.ts"
      And #f002 is "list" {"path": "src", "depth": 1} answering "src/\n  a.ts\n  b.ts"
      And #f003 is "list" {"path": "src"} answering "src/\n  a.ts\n  b.ts\n  c.ts"
      And #f004 is "list" {"path": "src"} answering "src/\n  a.ts\n  b.ts\n  c.ts"
      Then #f002 inserts "[#f002]\nsrc/\n  a.ts\n  b.ts"
      And #f003 inserts "[#f003]\nsrc/\n  a.ts\n  b.ts\n  c.ts"
      And #f004 inserts "[#f004] Same result as #f003."

  Rule: §7 compaction adds the table of the reads the summary covers and empties the dedupe table

    Scenario: the table lists the newest full read of each file; after it a read is full and recall still works
      Given the file "a.md" holds "alpha\n"
      And the file "b.md" holds "beta\n"
      When #2001 reads "a.md"
      And #2002 reads "b.md"
      And #2003 reads "a.md"
      And #2004 is "glob" {"pattern": "*.md"} answering "a.md\nb.md"
      And the session is compacted
      And #2005 reads "a.md"
      And #2006 is "glob" {"pattern": "*.md"} answering "a.md\nb.md"
      And #2007 recalls "#2002"
      Then #2003 inserts "[#2003 a.md lines 1-1 of 1 sha b6a98d9c] Unchanged since #2001, which already shows lines 1-1."
      And the compaction inserts:
        """
        ## Files read before this summary

        Read a file again for its content; recall shows a result by its id.

        | Path | Lines | sha | Result |
        |---|---|---|---|
        | a.md | 1-1 of 1 | b6a98d9c | #2001 |
        | b.md | 1-1 of 1 | f2c82dec | #2002 |
        """
      And #2005 inserts "[#2005 a.md lines 1-1 of 1 sha b6a98d9c]\n1: alpha"
      And #2006 inserts "[#2006]\na.md\nb.md"
      And #2007 inserts "[#2007 recall #2002 lines 1-1 of 1]\n1: beta"

    Scenario: a file read again after a change has its newest read in the table, newest last
      Given the file "a.md" holds "alpha\n"
      And the file "b.md" holds "beta\n"
      When #0001 reads "a.md"
      And #0002 reads "b.md"
      And the file "a.md" now holds "alpha\nbeta\n"
      And #0003 reads "a.md"
      And the session is compacted
      Then the compaction inserts:
        """
        ## Files read before this summary

        Read a file again for its content; recall shows a result by its id.

        | Path | Lines | sha | Result |
        |---|---|---|---|
        | b.md | 1-1 of 1 | f2c82dec | #0002 |
        | a.md | 1-2 of 2 | e49c81e2 | #0003 |
        """

    Scenario: with no reads there is no table
      When #0001 is "bash" {"command": "ls"} answering "a.md"
      And the session is compacted
      Then the compaction inserts nothing

    Scenario: the table covers the reads since the previous compaction, replies included
      Given the file "a.md" holds "alpha\n"
      And the file "b.md" holds "beta\n"
      And the file "c.md" holds "gamma\n"
      When #6001 reads "a.md"
      And a new reply begins
      And #6003 reads "a.md"
      And #6006 reads "b.md"
      And the session is compacted
      And #6007 reads "c.md"
      And a new reply begins
      And the session is compacted
      Then compaction 1 inserts:
        """
        ## Files read before this summary

        Read a file again for its content; recall shows a result by its id.

        | Path | Lines | sha | Result |
        |---|---|---|---|
        | a.md | 1-1 of 1 | b6a98d9c | #6003 |
        | b.md | 1-1 of 1 | f2c82dec | #6006 |
        """
      And compaction 2 inserts:
        """
        ## Files read before this summary

        Read a file again for its content; recall shows a result by its id.

        | Path | Lines | sha | Result |
        |---|---|---|---|
        | c.md | 1-1 of 1 | ae9a6306 | #6007 |
        """

  Rule: §2 and §7 a turn taken back takes its results with it; the ids keep counting

    Scenario: after an undo a re-read is in full, and the undone read has no row
      Given the file "a.md" holds "alpha\n"
      And the file "b.md" holds "beta\n"
      When #0001 reads "a.md"
      And a new turn begins
      And #0002 reads "b.md"
      And the last turn is undone
      And #0003 reads "b.md"
      And #0004 reads "a.md"
      And a new turn begins
      And #0005 reads "b.md"
      And the last 2 turns are rewound
      And the session is compacted
      Then #0003 inserts "[#0003 b.md lines 1-1 of 1 sha f2c82dec]\n1: beta"
      And #0004 inserts "[#0004 a.md lines 1-1 of 1 sha b6a98d9c] Unchanged since #0001, which already shows lines 1-1."
      And the compaction inserts:
        """
        ## Files read before this summary

        Read a file again for its content; recall shows a result by its id.

        | Path | Lines | sha | Result |
        |---|---|---|---|
        | a.md | 1-1 of 1 | b6a98d9c | #0001 |
        """

    Scenario: a summary reply with a call and no text fails the compaction, and nothing changes
      Given the file "a.md" holds "alpha\n"
      When #0001 reads "a.md"
      And the session is compacted, the summary's reply being "call"
      And #0002 reads "a.md"
      Then the compaction inserts nothing
      And #0002 inserts "[#0002 a.md lines 1-1 of 1 sha b6a98d9c] Unchanged since #0001, which already shows lines 1-1."
