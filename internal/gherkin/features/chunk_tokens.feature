Feature: chunk_tokens — the pieces a file is cut into for search, measured in tokens
  filesystem.md, "Indexing, by tokens": "the window is the longest stretch of at most size tokens;
  the cut is just after a paragraph break, else a line break, else a sentence's `. `, looked for in
  the window's last third (by characters), else at the window's end; the next piece begins at the
  start of the token overlap tokens before the cut. Pieces under 40 characters are dropped; a text
  that fits is one piece." The spec's stand-in tokenizer: "a token is a run of non-whitespace".

  Background:
    Given the words tokenizer

  Scenario: a text of at most size tokens is one piece, even one under 40 characters
    Given pieces of at most 16 tokens, 4 repeated
    And the text "Short note."
    When the text is cut
    Then the only piece is "Short note."

  Scenario Outline: a text of white space only has no pieces
    Given pieces of at most 16 tokens, 4 repeated
    And the text <text>
    Then there are no pieces

    Examples:
      | text            |
      | ""              |
      | "   \r\n  "     |
      | "\n\n\n"        |

  Scenario: CRLF is read as LF, and the text is trimmed
    Given pieces of at most 480 tokens, 64 repeated
    And the text "  first line\r\nsecond line\r\n  "
    Then the only piece is "first line\nsecond line"

  Scenario: a window without a break is cut at the end of its last token
    Given pieces of at most 16 tokens, 0 repeated
    And the text "word01 word02 word03 word04 word05 word06 word07 word08 word09 word10 word11 word12 word13 word14 word15 word16 word17 word18 word19 word20 word21 word22 word23 word24"
    Then the pieces are:
      | piece                                                                                                          |
      | word01 word02 word03 word04 word05 word06 word07 word08 word09 word10 word11 word12 word13 word14 word15 word16 |
      | word17 word18 word19 word20 word21 word22 word23 word24                                                        |

  Scenario Outline: a size under 16 is raised to 16
    Given pieces of at most <size> tokens, 0 repeated
    And the text "word01 word02 word03 word04 word05 word06 word07 word08 word09 word10 word11 word12 word13 word14 word15 word16 word17 word18 word19 word20 word21 word22 word23 word24"
    Then there are 2 pieces
    And piece 1 is "word01 word02 word03 word04 word05 word06 word07 word08 word09 word10 word11 word12 word13 word14 word15 word16"

    Examples:
      | size |
      | 1    |
      | 4    |
      | 15   |
      | 0    |

  Scenario: the next piece begins at the start of the token overlap tokens before the cut
    Given pieces of at most 16 tokens, 3 repeated
    And the text "word01 word02 word03 word04 word05 word06 word07 word08 word09 word10 word11 word12 word13 word14 word15 word16 word17 word18 word19 word20 word21 word22 word23 word24"
    Then there are 2 pieces
    And piece 2 is "word14 word15 word16 word17 word18 word19 word20 word21 word22 word23 word24"

  Scenario: the overlap is at most half the size
    Given pieces of at most 16 tokens, 40 repeated
    And the text "word01 word02 word03 word04 word05 word06 word07 word08 word09 word10 word11 word12 word13 word14 word15 word16 word17 word18 word19 word20 word21 word22 word23 word24 word25 word26 word27 word28 word29 word30 word31 word32"
    Then the pieces are:
      | piece                                                                                                          |
      | word01 word02 word03 word04 word05 word06 word07 word08 word09 word10 word11 word12 word13 word14 word15 word16 |
      | word09 word10 word11 word12 word13 word14 word15 word16 word17 word18 word19 word20 word21 word22 word23 word24 |
      | word17 word18 word19 word20 word21 word22 word23 word24 word25 word26 word27 word28 word29 word30 word31 word32 |

  Scenario: a piece under 40 characters is dropped
    Given pieces of at most 16 tokens, 0 repeated
    And the text "word01 word02 word03 word04 word05 word06 word07 word08 word09 word10 word11 word12 word13 word14 word15 word16 word17 word18"
    Then the only piece is "word01 word02 word03 word04 word05 word06 word07 word08 word09 word10 word11 word12 word13 word14 word15 word16"

  Scenario: the cut is just after a paragraph break in the window's last third
    Given pieces of at most 16 tokens, 4 repeated
    And the text:
      """
      The first paragraph is here, with nine words in it.

      The second paragraph follows it and has ten words in total.

      A third one closes the text with a few more words.
      """
    Then the pieces are:
      | piece                                                                                   |
      | The first paragraph is here, with nine words in it.\n\nThe second paragraph follows it and |
      | paragraph follows it and has ten words in total.\n\nA third one closes the text with       |

  Scenario: with no paragraph break, the cut is just after a line break in the last third
    Given pieces of at most 16 tokens, 4 repeated
    And the text "line one has four\nline two has four\nline three has five words\nline four has five words\nline five is the last one here\n"
    Then the pieces are:
      | piece                                                                      |
      | line one has four\nline two has four\nline three has five words             |
      | three has five words\nline four has five words\nline five is the last one here |

  Scenario: with no line break, the cut is just after a sentence's ". " in the last third
    Given pieces of at most 16 tokens, 0 repeated
    And the text "word01 word02 word03 word04 word05 word06 word07 word08 word09 word10 word11 word12 end. word13 word14 word15 word16 word17 word18 word19 word20 word21 word22 word23 word24"
    Then the pieces are:
      | piece                                                                                      |
      | word01 word02 word03 word04 word05 word06 word07 word08 word09 word10 word11 word12 end.   |
      | word13 word14 word15 word16 word17 word18 word19 word20 word21 word22 word23 word24        |

  Scenario: a sentence's ". " before the window's last third is not a cut
    Given pieces of at most 20 tokens, 5 repeated
    And the text "Alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega. Alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega."
    Then the pieces are:
      | piece                                                                                                       |
      | Alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon    |
      | pi rho sigma tau upsilon phi chi psi omega. Alpha beta gamma delta epsilon zeta eta theta iota kappa lambda  |
      | eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega.                     |

  Scenario: a break before the window's last third is not a cut
    Given pieces of at most 16 tokens, 4 repeated
    And the text "aa\nword01 word02 word03 word04 word05 word06 word07 word08 word09 word10 word11 word12 word13 word14 word15 word16 word17 word18 word19 word20"
    Then the pieces are:
      | piece                                                                                                     |
      | aa\nword01 word02 word03 word04 word05 word06 word07 word08 word09 word10 word11 word12 word13 word14 word15 |
      | word12 word13 word14 word15 word16 word17 word18 word19 word20                                            |
