Feature: index — what search's index embeds, and holds per path, as the tree changes
  lembas-check's own area, from filesystem.md, "Indexing, by tokens": "What `search` reads is
  built when a file is written (a mount: its default branch, and again for the files a new commit
  changes). The index is keyed by content hash, so a file in many places, or unchanged across
  commits and branches, is embedded once; a rename or a move costs nothing." The answer names a
  content by its SHA-256; a Then names the content itself.

  Scenario: a file written is indexed at once, its content embedded
    Given the file "/Notes/a.md" holds "Alpha notes.\n"
    Then the embedded contents are, in order:
      | content        |
      | Alpha notes.\n |
    And the index holds:
      | path        | content        |
      | /Notes/a.md | Alpha notes.\n |

  Scenario Outline: a move, a rename or a copy costs nothing
    Given the file "/Notes/a.md" holds "Alpha notes.\n"
    And the file "/Notes/sub/b.md" holds "Beta notes.\n"
    When "<from>" is <done> to "<to>"
    Then 2 contents are embedded
    And the index holds "<held>" as "<content>"

    Examples:
      | from        | done   | to               | held             | content        |
      | /Notes/a.md | moved  | /Notes/final.md  | /Notes/final.md  | Alpha notes.\n |
      | /Notes/sub  | moved  | /Archive         | /Archive/b.md    | Beta notes.\n  |
      | /Notes/a.md | copied | /Notes/a-copy.md | /Notes/a-copy.md | Alpha notes.\n |

  Scenario: a file in many places is embedded once
    Given the file "/Notes/a.md" holds "Same text.\n"
    And the file "/Team/x/a.md" holds "Same text.\n"
    When "/Notes/a.md" is copied to "/Backup.md"
    Then the embedded contents are, in order:
      | content      |
      | Same text.\n |
    And the index holds:
      | path         | content      |
      | /Notes/a.md  | Same text.\n |
      | /Team/x/a.md | Same text.\n |
      | /Backup.md   | Same text.\n |

  Scenario: a file changed back to content the index once embedded embeds nothing again
    Given the file "/Notes/a.md" holds "First.\n"
    When the file "/Notes/a.md" is written with "Second.\n"
    And the file "/Notes/a.md" is written with "First.\n"
    Then the embedded contents are, in order:
      | content   |
      | First.\n  |
      | Second.\n |
    And the index holds "/Notes/a.md" as "First.\n"

  Scenario: a file removed leaves the index
    Given the file "/Tmp/a.md" holds "Scratch.\n"
    When "/Tmp" is removed
    Then the index holds nothing
    And 1 contents are embedded

  Scenario: a mount indexes its default branch, in path order, a known content embedding nothing
    Given the file "/Notes/readme.md" holds "Read me.\n"
    When a repository is mounted at "/repo" with:
      | path        | content     |
      | src/main.go | package x\n |
      | README.md   | Read me.\n  |
      | LICENSE     | MIT\n       |
    Then the embedded contents are, in order:
      | content     |
      | Read me.\n  |
      | MIT\n       |
      | package x\n |
    And the index holds "/repo/README.md" as "Read me.\n"

  Scenario: a write inside a mount is staged, and indexed at the session's commit
    Given a repository mounted at "/repo" with:
      | path | content |
      | a.md | Old.\n  |
    When the file "/repo/a.md" is written with "New.\n"
    Then the index holds "/repo/a.md" as "Old.\n"
    And 1 contents are embedded

  Scenario: the session's commit indexes what it changes; a move inside the mount costs nothing
    Given a repository mounted at "/repo" with:
      | path        | content |
      | a.md        | Old.\n  |
      | old/name.md | Kept.\n |
    When the file "/repo/a.md" is written with "New.\n"
    And "/repo/old" is moved to "/repo/new"
    And the session commits "/repo"
    Then the embedded contents are, in order:
      | content |
      | Old.\n  |
      | Kept.\n |
      | New.\n  |
    And the index holds:
      | path             | content |
      | /repo/a.md       | New.\n  |
      | /repo/new/name.md | Kept.\n |

  Scenario: a commit with paths takes only those changes
    Given a repository mounted at "/repo" with:
      | path      | content |
      | a.md      | A.\n    |
      | docs/b.md | B.\n    |
    When the file "/repo/a.md" is written with "A2.\n"
    And the file "/repo/docs/b.md" is written with "B2.\n"
    And the session commits only "/repo/docs" in "/repo"
    Then the index holds "/repo/a.md" as "A.\n"
    And the index holds "/repo/docs/b.md" as "B2.\n"

  Scenario: a commit on the forge indexes the files it changes, a removed one leaving the index
    Given a repository mounted at "/repo" with:
      | path | content |
      | a.md | A.\n    |
      | b.md | B.\n    |
      | c.md | C.\n    |
    When a commit on the forge changes "/repo":
      | path | content   |
      | c.md | (removed) |
      | b.md | D.\n      |
      | z.md | A.\n      |
    Then the embedded contents are, in order:
      | content |
      | A.\n    |
      | B.\n    |
      | C.\n    |
      | D.\n    |
    And the index holds:
      | path       | content |
      | /repo/a.md | A.\n    |
      | /repo/b.md | D.\n    |
      | /repo/z.md | A.\n    |

  Scenario: two branches of one repository share what they have in common
    Given a repository mounted at "/main" with:
      | path      | content  |
      | README.md | Read.\n  |
      | src/x.go  | main\n   |
    And a repository mounted at "/feature" with:
      | path      | content   |
      | README.md | Read.\n   |
      | src/x.go  | feature\n |
    Then the embedded contents are, in order:
      | content   |
      | Read.\n   |
      | main\n    |
      | feature\n |

  Scenario: rm of a mount is refused, with no text of the spec's
    Given a repository mounted at "/repo" with:
      | path      | content |
      | README.md | Read.\n |
    When "/repo" is removed
    Then step 2 is refused

  Scenario: a commit outside every mount is refused with the spec's text
    Given the file "/Notes/a.md" holds "Alpha.\n"
    When the session commits "/Notes/a.md"
    Then step 2 is refused with "Nothing to commit: /Notes/a.md is not in a repository."
