Feature: workspace — per-session workspace roots on a real disk
  lembas-check's own area, from seeds/002 ("Session Workspaces"): "session/new validates the
  requested cwd against the allowlist and refuses otherwise"; the serve's directory is the
  always-present default root; "/" (what a client sends on every reload) means the default at
  session/new and keeps the stored root at session/load; a session's root is fixed at creation;
  local_fs "resolves against it and is sandboxed to it". The refusal words (not_allowed, escape,
  …) are lembas-check's own: the seed fixes no texts. A step is one When, counted from 1.

  Background:
    Given the disk:
      | path                 |
      | /srv/app/README.md   |
      | /srv/app/src/main.go |
      | /srv/docs/guide.md   |
      | /srv/docs/sub/       |
      | /etc/passwd          |
      | /home/me/notes.txt   |
    And the serve's own directory is "/srv/app"
    And the registered roots "/srv/docs"

  Scenario Outline: session/new takes a root on the allowlist and refuses any other: <cwd>
    When a session is made in "<cwd>"
    Then step 1 <answer>

    Examples:
      | cwd           | answer                              |
      | /srv/docs     | works in the root "/srv/docs"       |
      | /srv/app      | works in the root "/srv/app"        |
      | /etc          | is refused as not_allowed           |
      | /srv/docs/sub | is refused as not_allowed           |
      | /srv          | is refused as not_allowed           |

  Scenario Outline: at session/new the sentinel is the default root, and the session's paths resolve against it: <how>
    When <how>
    And the session reads "README.md"
    Then step 1 works in the root "/srv/app"
    And step 2 finds "/srv/app/README.md"

    Examples:
      | how                           |
      | a session is made in "/"      |
      | a session is made in ""       |
      | a session is made with no cwd |

  Scenario: at session/load the sentinel keeps the session's stored root, so a reload does not move it
    When a session is made in "/srv/docs"
    And the session is loaded in "/"
    And the session is loaded with no cwd
    And the session reads "guide.md"
    And the session reads "README.md"
    Then step 2 works in the root "/srv/docs"
    And step 3 works in the root "/srv/docs"
    And step 4 finds "/srv/docs/guide.md"
    And step 5 is refused as not_found

  Scenario: a session's root is fixed at its creation
    When a session is made in "/srv/docs"
    And the session's root is set to "/srv/app"
    And the session is loaded in "/srv/app"
    And the session is loaded in "/srv/docs/"
    Then step 2 is refused as immutable
    And step 3 is refused as immutable
    And step 4 works in the root "/srv/docs"

  Scenario: the picker lists the allowlist, the default first, each root once
    Given the registered roots "/srv/docs/", "/srv/app", "/home/me" and "/srv/docs"
    When the workspace-root picker is asked for
    Then step 1 offers the roots "/srv/app", "/srv/docs" and "/home/me"

  Scenario: with no root registered there is no picker, only the default, and /files serves the default
    Given no root is registered
    When the workspace-root picker is asked for
    And a session is made in "/srv/docs"
    And /files is asked for "README.md" in the root "/srv/docs"
    Then step 1 offers no picker
    And step 2 is refused as not_allowed
    And step 3 finds "/srv/app/README.md"

  Scenario Outline: a path resolves against the root and is sandboxed to it: <op> <path>
    When a session is made in "/srv/app"
    And the session <op> "<path>"
    Then step 2 <answer>

    Examples:
      | op     | path                        | answer                                  |
      | reads  | src/../README.md            | finds "/srv/app/README.md"              |
      | reads  | /srv/app/../app/src/main.go | finds "/srv/app/src/main.go"            |
      | reads  | .                           | finds "/srv/app"                        |
      | reads  | ../docs/guide.md            | is refused as escape                    |
      | reads  | /etc/passwd                 | is refused as escape                    |
      | reads  | missing.txt                 | is refused as not_found                 |
      | writes | new/dir/file.txt            | finds "/srv/app/new/dir/file.txt"       |
      | writes | ../docs/new.md              | is refused as escape                    |

  Scenario Outline: a path is resolved where it really is: a link out of the root is an escape: <path>
    Given the link "/srv/app/etc" to "/etc"
    And the link "/srv/app/up" to "../docs"
    And the link "/srv/app/inner" to "src"
    When a session is made with no cwd
    And the session reads "<path>"
    Then step 2 <answer>

    Examples:
      | path          | answer                       |
      | etc/passwd    | is refused as escape         |
      | etc           | is refused as escape         |
      | up/guide.md   | is refused as escape         |
      | inner/main.go | finds "/srv/app/src/main.go" |

  Scenario: a step on a session needs one
    When the session reads "README.md"
    And a session is made in "/etc"
    And the session is loaded in "/"
    And a session is made in "/srv/docs"
    And the session reads "guide.md"
    Then step 1 is refused as no_session
    And step 2 is refused as not_allowed
    And step 3 is refused as no_session
    And step 5 finds "/srv/docs/guide.md"

  Scenario: links that loop are refused
    Given the link "/srv/app/a" to "b"
    And the link "/srv/app/b" to "a"
    When a session is made with no cwd
    And the session reads "a"
    And the session writes "a/new.txt"
    Then step 2 is refused as loop
    And step 3 is refused as loop
