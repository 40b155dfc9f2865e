Feature: fs_access — the file system one session sees
  filesystem.md: paths, access levels, grants and floors, passages, what each operation needs, the
  errors ("The texts, exactly, with {path} the resolved absolute path") and a listing. "Only what is
  at ro or above exists for the model."

  Rule: a granted path under a path that is not is seen by its full path; what lies between is a passage
    The example of filesystem.md, "A granted path under a path that is not": the tree /AGENTS.md,
    /Dir1/, /Dir1/FILE1.txt, /Dir1/Dir3/, /Dir2/, with /AGENTS.md and /Dir1/Dir3/ granted.

    Background:
      Given the tree:
        | path            |
        | /AGENTS.md      |
        | /Dir1/          |
        | /Dir1/FILE1.txt |
        | /Dir1/AGENTS.md |
        | /Dir1/Dir3/     |
        | /Dir1/Dir3/a.md |
        | /Dir2/          |
        | /Dir2/b.md      |
      And the grants:
        | path       | level |
        | /AGENTS.md | ro    |
        | /Dir1/Dir3 | stage |

    Scenario Outline: "/ and /Dir1 are passages: at none, with something granted below"
      When the session asks for the level of "<path>"
      Then the level is "none" and it is a passage

      Examples:
        | path  |
        | /     |
        | /Dir1 |

    Scenario Outline: a grant covers everything below its path, and a path with no grant on it or above it is at none
      When the session asks for the level of "<path>"
      Then the level is "<level>" and it is not a passage

      Examples:
        | path              | level |
        | /AGENTS.md        | ro    |
        | /Dir1/Dir3        | stage |
        | /Dir1/Dir3/a.md   | stage |
        | /Dir1/Dir3/new.md | stage |
        | /Dir1/FILE1.txt   | none  |
        | /Dir2             | none  |

    Scenario Outline: a passage is denied for reading and writing alike
      When the session does <op> on "<path>"
      Then it fails with "Access denied: <path> is not open to this session."

      Examples:
        | op    | path            |
        | list  | /Dir1           |
        | list  | /               |
        | read  | /Dir1/FILE1.txt |
        | write | /Dir1/new.txt   |
        | mkdir | /Dir1/x         |

    Scenario Outline: a hidden entry and a missing one under a passage get the same answer
      When the session reads "<path>"
      Then it fails with "Access denied: <path> is not open to this session."

      Examples:
        | path       |
        | /Dir2/b.md |
        | /Dir2      |
        | /Nope.md   |

    Scenario: under a visible directory a missing path is no such file
      When the session reads "/Dir1/Dir3/missing.md"
      Then it fails with "No such file or directory: /Dir1/Dir3/missing.md"

    Scenario: a granted file is read by its full path
      When the session reads "/AGENTS.md"
      Then it succeeds

    Scenario: a listing of a granted directory shows its entries
      When the session lists "/Dir1/Dir3"
      Then the listing is:
        | entry |
        | a.md  |

    Scenario: a relative path resolves against the start directory, and the answer names the absolute path
      Given the session starts in "/Dir1/Dir3"
      When the session reads "../FILE1.txt"
      Then it fails with "Access denied: /Dir1/FILE1.txt is not open to this session."

    Scenario: a new file under a granted directory may be written by a relative path
      Given the session starts in "/Dir1/Dir3"
      When the session writes "new.md"
      Then it succeeds

    Scenario Outline: . and .. are read by their text, .. above / stays at /, repeated and trailing / count as one
      Given the session starts in "/Dir1/Dir3"
      When the session does <op> on "<path>"
      Then it fails with "<error>"

      Examples:
        | op    | path                          | error                                                     |
        | read  | ../../Dir2/./b.md             | Access denied: /Dir2/b.md is not open to this session.    |
        | read  | /../../Nope.md                | Access denied: /Nope.md is not open to this session.      |
        | write | /Dir1//Dir3/../../AGENTS.md/  | Read-only: /AGENTS.md can be read in this session but not changed. |
        | read  | ./missing.md                  | No such file or directory: /Dir1/Dir3/missing.md          |

    Scenario: a path written with .. and repeated / lists the directory it names
      When the session lists "/Dir1/Dir3/../../Dir1//Dir3/"
      Then the listing is:
        | entry |
        | a.md  |

  Rule: the most specific grant wins, and a floor lowers it
    "/ at ro and /Notes at stage make /Notes/a.md writable and /b.md read-only; /Notes/Private at
    none takes that directory away again." "The level a session has is its grant, lowered to the
    floor."

    Background:
      Given the tree:
        | path               |
        | /b.md              |
        | /Notes/a.md        |
        | /Notes/Private/p.md |
        | /Ref/r.md          |
      And the grants:
        | path           | level |
        | /              | ro    |
        | /Notes         | stage |
        | /Notes/Private | none  |

    Scenario Outline: the most specific grant on the path or above it is the path's level
      When the session asks for the level of "<path>"
      Then the level is "<level>" and it is not a passage

      Examples:
        | path                | level |
        | /b.md               | ro    |
        | /Notes/a.md         | stage |
        | /Notes/new.md       | stage |
        | /Notes/Private      | none  |
        | /Notes/Private/p.md | none  |

    Scenario Outline: a floor is the most a path may be: the grant lowered to the most specific floor
      Given the grants:
        | path | level  |
        | /    | commit |
      And the floor:
        | path     | level |
        | /Ref     | ro    |
        | /Notes   | stage |
      When the session asks for the level of "<path>"
      Then the level is "<level>" and it is not a passage

      Examples:
        | path        | level  |
        | /Ref/r.md   | ro     |
        | /Notes/a.md | stage  |
        | /b.md       | commit |

    Scenario: a change under a floor at ro is read-only
      Given the grants:
        | path | level  |
        | /    | commit |
      And the floor:
        | path | level |
        | /Ref | ro    |
      When the session writes "/Ref/r.md"
      Then it fails with "Read-only: /Ref/r.md can be read in this session but not changed."

    Scenario: an entry taken away under a visible directory reads as a missing one
      When the session reads "/Notes/Private/p.md"
      Then it fails with "No such file or directory: /Notes/Private/p.md"

    Scenario: under a directory the session may write, a name taken by an entry at none cannot be created
      When the session makes the directory "/Notes/Private"
      Then it fails with "Access denied: /Notes/Private is not open to this session."

  Rule: a listing — directories first with a trailing /, then by name; a mount and a read-only entry marked
    "one entry per line, directories (and mounts) with a trailing /, then — in a chat — a mount
    marked [mount] and an entry the session can read but not change, in a directory it can, marked
    [read-only]. Directories first, then by name."

    Scenario: entries the session cannot read are left out, and one it can read but not change is marked
      Given the tree:
        | path                |
        | /Notes/a.md         |
        | /Notes/Private/p.md |
        | /Ref/r.md           |
      And the grants:
        | path           | level |
        | /              | stage |
        | /Notes/Private | none  |
        | /Ref           | ro    |
      When the session lists "/"
      Then the listing is:
        | entry           |
        | Notes/          |
        | Ref/ [read-only] |

    Scenario: a mount is listed with its mark
      Given the tree:
        | path            |
        | /repo/README.md |
        | /home/n.md      |
      And the mounts "/repo"
      And the grants:
        | path  | level  |
        | /     | commit |
        | /repo | stage  |
      When the session lists "/"
      Then the listing is:
        | entry         |
        | home/         |
        | repo/ [mount] |

    Scenario: directories come first, then files, each by name
      Given the tree:
        | path      |
        | /b.md     |
        | /src/x.go |
        | /a.md     |
        | /docs/    |
      And the grants:
        | path | level |
        | /    | ro    |
      When the session lists "/"
      Then the listing is:
        | entry |
        | docs/ |
        | src/  |
        | a.md  |
        | b.md  |

    Scenario: a directory given to read answers its listing
      Given the tree:
        | path      |
        | /d/x.md   |
        | /d/sub/   |
      And the grants:
        | path | level |
        | /    | ro    |
      When the session reads "/d"
      Then the listing is:
        | entry |
        | sub/  |
        | x.md  |

    Scenario: an empty directory lists nothing
      Given the tree:
        | path    |
        | /empty/ |
      And the grants:
        | path | level |
        | /    | ro    |
      When the session lists "/empty"
      Then the listing is empty

  Rule: every error is one row of filesystem.md's Errors table, naming the resolved absolute path

    Background:
      Given the tree:
        | path             |
        | /repo/README.md  |
        | /repo/src/x.ts   |
        | /home/n.md       |
        | /home/ro/r.md    |
        | /home/hidden/h.md |
      And the mounts "/repo"
      And the grants:
        | path         | level  |
        | /            | commit |
        | /repo/src    | stage  |
        | /home/ro     | ro     |
        | /home/hidden | none   |

    Scenario Outline: <case>
      When the session does <op> on "<path>"
      Then it fails with "<error>"

      Examples:
        | case                                   | op     | path              | error                                                                                       |
        | not visible, under a visible directory | read   | /home/missing.md  | No such file or directory: /home/missing.md                                                 |
        | at none, under a visible directory     | read   | /home/hidden/h.md | No such file or directory: /home/hidden/h.md                                                |
        | a name taken by an entry at none       | write  | /home/hidden      | Access denied: /home/hidden is not open to this session.                                    |
        | a change at ro                         | write  | /home/ro/r.md     | Read-only: /home/ro/r.md can be read in this session but not changed.                       |
        | a new file at ro                       | write  | /home/ro/new.md   | Read-only: /home/ro/new.md can be read in this session but not changed.                     |
        | a commit at stage                      | commit | /repo/src/x.ts    | Not committed: this session may change /repo/src/x.ts but not commit it; the change stays staged. |
        | a commit outside every mount           | commit | /home/n.md        | Nothing to commit: /home/n.md is not in a repository.                                       |
        | a directory where a file was meant     | write  | /repo/src         | Is a directory: /repo/src                                                                   |
        | a file where a directory was meant     | write  | /home/n.md/x      | Not a directory: /home/n.md                                                                 |
        | a file listed as a directory           | list   | /home/n.md        | Not a directory: /home/n.md                                                                 |
        | a file mkdir was asked to make         | mkdir  | /home/n.md        | Already exists: /home/n.md                                                                  |

    Scenario Outline: an operation the session's level allows succeeds: <op> <path>
      When the session does <op> on "<path>"
      Then it succeeds

      Examples:
        | op     | path            |
        | commit | /repo/README.md |
        | write  | /repo/src/y.ts  |
        | write  | /home/new.md    |
        | mkdir  | /home           |
        | mkdir  | /home/a/b       |
        | rm     | /home/n.md      |
        | read   | /home/ro/r.md   |

  Rule: on a mount the forge decides first: no level there is above what the user's forge account may do
    filesystem.md, Access levels: "On a mount, the forge decides first: a level is never above
    what the user's own forge account may do there." `forge` (a mount, and what the user's forge
    account may do there) is lembas-check's own field.

    Background:
      Given the tree:
        | path       |
        | /repo/a.ts |
        | /b.md      |
      And the mounts "/repo"

    Scenario: a grant of commit on a mount whose account may only stage leaves the session at stage
      Given the grants:
        | path | level  |
        | /    | commit |
      And the forge account:
        | mount | level |
        | /repo | stage |
      When the session commits "/repo/a.ts"
      Then it fails with "Not committed: this session may change /repo/a.ts but not commit it; the change stays staged."

    Scenario: an account that may only read makes the mount read-only, whatever the grant
      Given the grants:
        | path  | level |
        | /repo | stage |
      And the forge account:
        | mount | level |
        | /repo | ro    |
      When the session writes "/repo/a.ts"
      Then it fails with "Read-only: /repo/a.ts can be read in this session but not changed."

    Scenario Outline: the forge only lowers, and only on its mount: <forge> there, <path>
      Given the grants:
        | path | level |
        | /    | ro    |
      And the forge account:
        | mount | level   |
        | /repo | <forge> |
      When the session asks for the level of "<path>"
      Then the level is "<level>" and it is not a passage

      Examples:
        | forge  | path       | level |
        | commit | /repo/a.ts | ro    |
        | none   | /repo/a.ts | none  |
        | none   | /b.md      | ro    |

  Rule: a device's listing leaves out build directories and what each .gitignore says
    filesystem.md, A listing: "A device leaves out ignored and build directories (`.git`,
    `node_modules`, …, and what `.gitignore` says) and shows only directories that hold a file it
    would list." Each .gitignore is read as git reads it, from its own directory.

    Scenario: "**" lines as git reads them, and a deeper .gitignore from its own directory
      Given the tree:
        | path                   |
        | /p/.gitignore          |
        | /p/src/app.ts          |
        | /p/src/gen/types.ts    |
        | /p/node_modules/x/i.js |
        | /p/docs/guide.md       |
        | /p/docs/drafts/wip.md  |
        | /p/lib/.gitignore      |
        | /p/lib/a.go            |
        | /p/lib/a_test.go       |
        | /p/build/out/app       |
      And the tree is a device's
      And the .gitignore "/p/.gitignore" says:
        """
        **/gen/
        docs/**/drafts
        build/**
        """
      And the .gitignore "/p/lib/.gitignore" says:
        """
        *_test.go
        """
      When the session lists "/p" as text to depth 2
      Then the text is:
        """
        docs/
          guide.md
        lib/
          .gitignore
          a.go
        src/
          app.ts
        .gitignore
        """
