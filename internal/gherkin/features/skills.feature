Feature: skills — where a session finds its skills, and which it offers
  filesystem.md, "Skills": "Where they are found, in order of precedence — a name found in an
  earlier place wins, and the later one is not offered". "So on both sides the session's own place
  comes first, the person's next, what is shared last."

  Scenario: a chat's places, the nearest first, then the person's, then the organisation's
    Given the files:
      | path                               |
      | /team/repo/skills/deploy/SKILL.md  |
      | /team/skills/deploy/SKILL.md       |
      | /team/skills/lint/SKILL.md         |
      | /home/ana/skills/lint/SKILL.md     |
      | /home/ana/skills/fmt/SKILL.md      |
      | /skills/fmt/SKILL.md               |
      | /skills/notes/SKILL.md             |
    And a chat started in "/team/repo" with the boundary "/"
    And the person is "ana"
    When the skills are listed
    Then the skills offered are:
      | deploy | /team/repo/skills/deploy/SKILL.md |
      | lint   | /team/skills/lint/SKILL.md        |
      | fmt    | /home/ana/skills/fmt/SKILL.md     |
      | notes  | /skills/notes/SKILL.md            |

  Scenario: a skill the session cannot read is not one, and does not hide the later one of its name
    Given the files:
      | path                         |
      | /team/skills/deploy/SKILL.md |
      | /skills/deploy/SKILL.md      |
    And the grants:
      | path                | level |
      | /                   | ro    |
      | /team/skills/deploy | none  |
    And a chat started in "/team" with the boundary "/"
    And the person is "ana"
    When the skills are listed
    Then the skills offered are:
      | deploy | /skills/deploy/SKILL.md |

  Scenario: a device's places: the trusted project's, the user's, then the configuration's in order
    Given the files:
      | path                        |
      | /proj/.agent/skills/a/SKILL.md |
      | /home/u/skills/a/SKILL.md   |
      | /home/u/skills/b/SKILL.md   |
      | /opt/skills/b/SKILL.md      |
      | /opt/skills/c/SKILL.md      |
    And a device session in the project "/proj"
    And the project is trusted
    And the user's own skills are in "/home/u/skills"
    And the configuration adds the skill directories:
      | dir         |
      | /opt/skills |
    When the skills are listed
    Then the skills offered are:
      | a | /proj/.agent/skills/a/SKILL.md |
      | b | /home/u/skills/b/SKILL.md      |
      | c | /opt/skills/c/SKILL.md         |

  Scenario: a project that is not trusted has no place of its own
    Given the files:
      | path                           |
      | /proj/.agent/skills/a/SKILL.md |
    And a device session in the project "/proj"
    When the skills are listed
    Then no skill is offered

  Scenario Outline: a name is looked up ignoring case, with _ and spaces read as -
    Given the files:
      | path                        |
      | /home/ana/skills/a/SKILL.md |
    And the skill "/home/ana/skills/a/SKILL.md" is named "My Skill_One"
    And a chat started in "/" with the boundary "/"
    And the person is "ana"
    When the skill "<name>" is viewed
    Then it loads "/home/ana/skills/a/SKILL.md"

    Examples:
      | name         |
      | my-skill-one |
      | MY SKILL ONE |
      | my_skill one |

  Scenario: a name no skill has is not found
    Given the files:
      | path                               |
      | /home/ana/skills/my-skill/SKILL.md |
    And a chat started in "/" with the boundary "/"
    And the person is "ana"
    When the skill "my.skill" is viewed
    Then no skill is found

  Scenario: skill_manage makes a new skill in the person's own place
    Given the files:
      | path       |
      | /home/ana/ |
    And the grants:
      | path      | level |
      | /         | ro    |
      | /home/ana | stage |
    And a chat started in "/" with the boundary "/"
    And the person is "ana"
    When the skill "release-notes-2" is made
    Then it makes "/home/ana/skills/release-notes-2/SKILL.md"

  Scenario Outline: skill_manage refuses a name outside ^[a-z0-9][a-z0-9-]{0,63}$
    Given the files:
      | path       |
      | /home/ana/ |
    And the grants:
      | path      | level |
      | /home/ana | stage |
    And a chat started in "/" with the boundary "/"
    And the person is "ana"
    When the skill "<name>" is made
    Then the name is refused

    Examples:
      | name    |
      | Release |
      | -lead   |
      | a_b     |

  Scenario: making a skill where the person's place is read-only is the Read-only error
    Given the files:
      | path               |
      | /home/ana/notes.md |
    And a chat started in "/" with the boundary "/"
    And the person is "ana"
    When the skill "mine" is made
    Then the error is "Read-only: /home/ana/skills/mine/SKILL.md can be read in this session but not changed."
