Feature: search — passages ranked by meaning and by words, fused by rank, filtered by the session's view
  lembas-check's own area, from filesystem.md, "A search": "ranks passages by meaning (embeddings)
  and by words (full-text) fused by rank, then keeps only what the session's view allows — after
  scoring, so a hidden file changes neither the results nor how many there are. A result is the
  passage's path and line range, then the passage". tools/search.json: path "limits the search to
  a directory (default: everything this session can see)", limit "How many passages (default 10)".
  A passage's meaning or words score is left empty when that search did not return it.

  Background:
    Given the tree:
      | path                     |
      | /Notes/todo.md           |
      | /Notes/Private/salary.md |
      | /Docs/api.md             |
      | /Docs/guide.md           |
      | /Docs2/x.md              |
      | /AGENTS.md               |
    And the grants:
      | path           | level |
      | /              | ro    |
      | /Notes/Private | none  |

  Scenario: a result is the passage's path and line range, then the passage, best first
    Given the passages:
      | path           | lines | meaning | words | text                                                               |
      | /Docs/guide.md | 3-8   | 0.5     | 1.0   | See the guide.                                                     |
      | /Docs/api.md   | 1-4   | 0.9     | 2.0   | The API takes a token in the header.\nTokens expire after an hour. |
    When the session searches everything
    Then the results are, best first:
      | result            | passage                                                            |
      | /Docs/api.md:1-4  | The API takes a token in the header.\nTokens expire after an hour. |
      | /Docs/guide.md:3-8 | See the guide.                                                    |

  Scenario: fused by rank, not by score: ranked second by meaning and first by words beats first by meaning alone
    Given the passages:
      | path           | lines | meaning | words | text                              |
      | /Docs/api.md   | 1-9   | 0.95    |       | Tokens are sent as Bearer tokens. |
      | /Docs/guide.md | 3-8   | 0.2     | 0.5   | A token lasts an hour.            |
    When the session searches everything
    Then the results are, best first:
      | result             | passage                           |
      | /Docs/guide.md:3-8 | A token lasts an hour.            |
      | /Docs/api.md:1-9   | Tokens are sent as Bearer tokens. |

  Scenario: a passage neither search returned is no result
    Given the passages:
      | path           | lines | meaning | words | text      |
      | /Docs/api.md   | 1-2   | 0.4     |       | found     |
      | /Notes/todo.md | 1-2   |         |       | Buy milk. |
    When the session searches everything
    Then there are 1 results
    And result 1 is "/Docs/api.md:1-2"

  Scenario Outline: a hidden file changes neither the results nor how many there are (<index>)
    Given the passages:
      | path                     | lines | meaning | words | text   |
      | /Notes/Private/salary.md | 1-3   | 0.99    | 9.0   | hidden |
      | /Docs/api.md             | 1-3   | 0.9     | 5.0   | first  |
      | /Docs/guide.md           | 1-3   | 0.8     | 4.0   | second |
      | /Notes/todo.md           | 1-3   | 0.7     | 3.0   | third  |
    When the session searches everything for <limit> results
    Then there are <count> results
    And result 1 is "/Docs/api.md:1-3"

    Examples:
      | index          | limit | count |
      | all of them    | 10    | 3     |
      | a limit of two | 2     | 2     |
      | a limit of one | 1     | 1     |

  Scenario: the same search without the hidden passage gives the same answer
    Given the passages:
      | path           | lines | meaning | words | text   |
      | /Docs/api.md   | 1-3   | 0.9     | 5.0   | first  |
      | /Docs/guide.md | 1-3   | 0.8     | 4.0   | second |
      | /Notes/todo.md | 1-3   | 0.7     | 3.0   | third  |
    When the session searches everything for 2 results
    Then the results are, best first:
      | result             | passage |
      | /Docs/api.md:1-3   | first   |
      | /Docs/guide.md:1-3 | second  |

  Scenario: without a limit a search gives ten passages
    Given the passages:
      | path         | lines | meaning | words | text |
      | /Docs/api.md | 1-1   | 0.99    |       | p1   |
      | /Docs/api.md | 2-2   | 0.98    |       | p2   |
      | /Docs/api.md | 3-3   | 0.97    |       | p3   |
      | /Docs/api.md | 4-4   | 0.96    |       | p4   |
      | /Docs/api.md | 5-5   | 0.95    |       | p5   |
      | /Docs/api.md | 6-6   | 0.94    |       | p6   |
      | /Docs/api.md | 7-7   | 0.93    |       | p7   |
      | /Docs/api.md | 8-8   | 0.92    |       | p8   |
      | /Docs/api.md | 9-9   | 0.91    |       | p9   |
      | /Docs/api.md | 10-10 | 0.90    |       | p10  |
      | /Docs/api.md | 11-11 | 0.89    |       | p11  |
      | /Docs/api.md | 12-12 | 0.88    |       | p12  |
    When the session searches everything
    Then there are 10 results
    And result 10 is "/Docs/api.md:10-10"

  Scenario Outline: path limits the search to a directory, resolved against the start directory: <path>
    Given the session starts in "/Notes"
    And the passages:
      | path           | lines | meaning | words | text      |
      | /Docs/api.md   | 1-3   | 0.5     |       | In Docs.  |
      | /Docs2/x.md    | 1-3   | 0.9     |       | In Docs2. |
      | /Notes/todo.md | 1-3   | 0.8     |       | In Notes. |
    When the session searches "<path>"
    Then the results are, best first:
      | result         | passage  |
      | /Docs/api.md:1-3 | In Docs. |

    Examples:
      | path      |
      | /Docs     |
      | ../Docs   |
      | /Docs/    |

  Scenario Outline: a search is refused as a listing of its directory would be: <why>
    Given the passages:
      | path         | lines | meaning | words | text  |
      | /Docs/api.md | 1-3   | 0.5     |       | found |
    When the session searches "<path>"
    Then it fails with "<error>"

    Examples:
      | why                                 | path           | error                                      |
      | a hidden directory under a visible one | /Notes/Private | No such file or directory: /Notes/Private |
      | a missing directory                 | /Nope          | No such file or directory: /Nope           |
      | a file                              | /Docs/api.md   | Not a directory: /Docs/api.md              |

  Scenario: a floor lowers what the view allows
    Given the grants:
      | path | level  |
      | /    | commit |
    And the floor:
      | path  | level |
      | /Docs | none  |
    And the passages:
      | path           | lines | meaning | words | text          |
      | /Docs/api.md   | 1-4   | 0.9     | 2.0   | hidden by floor |
      | /Notes/todo.md | 12-30 | 0.8     | 5.0   | Buy milk.     |
    When the session searches everything
    Then the results are, best first:
      | result               | passage   |
      | /Notes/todo.md:12-30 | Buy milk. |

  Rule: a search rooted at a passage is denied like a listing; without a path it finds what is granted, however it is reached

    Background:
      Given the tree:
        | path            |
        | /AGENTS.md      |
        | /Dir1/FILE1.txt |
        | /Dir1/Dir3/a.md |
        | /Dir2/b.md      |
      And the grants:
        | path       | level |
        | /AGENTS.md | ro    |
        | /Dir1/Dir3 | stage |
      And the passages:
        | path            | lines | meaning | words | text        |
        | /Dir1/FILE1.txt | 1-2   | 0.9     |       | file one    |
        | /Dir1/Dir3/a.md | 1-2   | 0.8     | 1.0   | a in Dir3   |
        | /AGENTS.md      | 1-1   | 0.7     |       | root agents |
        | /Dir2/b.md      | 1-2   | 0.95    |       | b           |

    Scenario: a search rooted at a passage is denied
      When the session searches "/Dir1"
      Then it fails with "Access denied: /Dir1 is not open to this session."

    Scenario: a search without a path covers everything the session can see
      When the session searches everything
      Then the results are, best first:
        | result            | passage     |
        | /Dir1/Dir3/a.md:1-2 | a in Dir3 |
        | /AGENTS.md:1-1    | root agents |

    Scenario: a search rooted at a granted directory finds what is below it
      When the session searches "/Dir1/Dir3"
      Then the results are, best first:
        | result              | passage   |
        | /Dir1/Dir3/a.md:1-2 | a in Dir3 |

  Rule: grep is the exact counterpart (text or a pattern), over the same view
    filesystem.md, A search: "`grep` is the exact counterpart (text or a pattern), over the same
    view." `grep` is lembas-check's own field; a match is the line's path and number.

    Scenario: grep finds the text as written, each line that holds it once, by path then line, and no hidden line
      Given the passages:
        | path                     | lines | meaning | words | text                                        |
        | /Docs/guide.md           | 1-3   | 0.9     |       | # Guide\nRun make install.\nThen make test. |
        | /Docs/guide.md           | 3-4   |         |       | Then make test.\nDone: make it so.          |
        | /Notes/Private/salary.md | 1-2   |         | 3.0   | make the key\nnever share it                |
        | /Docs/api.md             | 10-11 |         |       | GET /v1/items\nmake a token first           |
      When the session greps for "make"
      Then the matches are:
        | match            |
        | /Docs/api.md:11  |
        | /Docs/guide.md:2 |
        | /Docs/guide.md:3 |
        | /Docs/guide.md:4 |

    Scenario: grep's text is not a pattern: "." finds only a line with a dot in it
      Given the passages:
        | path           | lines | meaning | words | text                            |
        | /Docs/api.md   | 1-2   |         |       | GET /v1/items\nsee the 1.2 notes |
        | /Notes/todo.md | 1-1   |         |       | Buy milk                        |
      When the session greps for "."
      Then the matches are:
        | match          |
        | /Docs/api.md:2 |

    Scenario: grep for a pattern under a path: that directory only, by whole names
      Given the passages:
        | path         | lines | meaning | words | text                             |
        | /Docs/api.md | 10-11 |         |       | GET /v1/items\nPOST /v1/items/42 |
        | /Docs2/x.md  | 1-1   |         |       | GET /v1/items                    |
      When the session greps "/Docs" for the pattern "^(GET|POST) /v1/items"
      Then the matches are:
        | match           |
        | /Docs/api.md:10 |
        | /Docs/api.md:11 |

    Scenario: a grep that finds nothing has no matches
      Given the passages:
        | path         | lines | meaning | words | text          |
        | /Docs/api.md | 1-1   | 0.9     | 2.0   | GET /v1/items |
      When the session greps for "DELETE"
      Then there are no matches
