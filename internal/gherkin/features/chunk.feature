Feature: chunk — the pieces a knowledge document is cut into, measured in characters
  conformance/chunk.json's about (vendored in extra/chunk.json): "about `size` characters (raised to
  200 when smaller), cut just after a paragraph break, else a line break, else a sentence's ". ",
  found in the window's last third, with `overlap` characters (at most half the size) repeated; CRLF
  read as LF; pieces under 40 characters dropped." filesystem.md: "a text that fits is one piece."
  Long texts are written "x" x 150: the string repeated 150 times.

  Scenario: a text that fits is one piece, even one under 40 characters
    Given pieces of at most 200 characters, 0 repeated
    And the text "Tiny."
    When the text is cut
    Then the only piece is "Tiny."

  Scenario Outline: a text of white space only has no pieces
    Given pieces of at most 200 characters, 0 repeated
    And the text <text>
    Then there are no pieces

    Examples:
      | text        |
      | ""          |
      | " \r\n \t " |

  Scenario Outline: a size under 200 is raised to 200
    Given pieces of at most <size> characters, 0 repeated
    And the text "a" x 250
    Then the pieces are:
      | piece |
      | aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa |
      | aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa |

    Examples:
      | size |
      | 0    |
      | 50   |
      | 199  |
      | 200  |

  Scenario: a size over 200 is kept
    Given pieces of at most 250 characters, 0 repeated
    And the text "a" x 300
    Then there are 2 pieces
    And piece 1 is "a" x 250
    And piece 2 is "a" x 50

  Scenario: the next piece repeats overlap characters from before the cut
    Given pieces of at most 200 characters, 20 repeated
    And the text "a" x 190 + "b" x 60
    Then there are 2 pieces
    And piece 1 is "a" x 190 + "b" x 10
    And piece 2 is "a" x 10 + "b" x 60

  Scenario: the overlap is at most half the size
    Given pieces of at most 200 characters, 150 repeated
    And the text "a" x 200 + "b" x 100
    Then there are 2 pieces
    And piece 1 is "a" x 200
    And piece 2 is "a" x 100 + "b" x 100

  Scenario: a paragraph break in the window's last third comes before a line break
    Given pieces of at most 200 characters, 0 repeated
    And the text "x" x 150 + "\n" + "y" x 20 + "\n\n" + "z" x 100
    Then there are 2 pieces
    And piece 1 is "x" x 150 + "\n" + "y" x 20
    And piece 2 is "z" x 100

  Scenario: with no paragraph break, a line break comes before a sentence's ". "
    Given pieces of at most 200 characters, 0 repeated
    And the text "x" x 150 + ". " + "y" x 20 + "\n" + "z" x 100
    Then there are 2 pieces
    And piece 1 is "x" x 150 + ". " + "y" x 20
    And piece 2 is "z" x 100

  Scenario: with no line break, the cut is just after a sentence's ". "
    Given pieces of at most 200 characters, 0 repeated
    And the text "x" x 150 + ". " + "z" x 100
    Then there are 2 pieces
    And piece 1 is "x" x 150 + "."
    And piece 2 is "z" x 100

  Scenario: a break before the window's last third is not a cut, even a paragraph break
    Given pieces of at most 200 characters, 0 repeated
    And the text "x" x 100 + "\n\n" + "y" x 150
    Then there are 2 pieces
    And piece 1 is "x" x 100 + "\n\n" + "y" x 98
    And piece 2 is "y" x 52

  Scenario: CRLF is read as LF, so "\r\n\r\n" is a paragraph break
    Given pieces of at most 200 characters, 0 repeated
    And the text "x" x 150 + "\r\n\r\n" + "z" x 100
    Then there are 2 pieces
    And piece 1 is "x" x 150
    And piece 2 is "z" x 100

  Scenario Outline: a piece under 40 characters is dropped
    Given pieces of at most 200 characters, 0 repeated
    And the text "a" x <length>
    Then there are <pieces> pieces
    And piece 1 is "a" x 200

    Examples:
      | length | pieces |
      | 230    | 1      |
      | 239    | 1      |
      | 240    | 2      |

  Scenario: characters are counted as characters, not bytes
    Given pieces of at most 200 characters, 0 repeated
    And the text "é" x 250
    Then there are 2 pieces
    And piece 1 is "é" x 200
    And piece 2 is "é" x 50
