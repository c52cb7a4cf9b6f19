"""``demo --lti``: the graded demo class posted to the test LTI platform on 127.0.0.1, as an instructor would post
a real class (roster, a dry run, the passback, a second passback that posts nothing), then what the platform
holds, checked against the gradebook."""

import json

from ..export.lms.totals import totals
from ..lms.keys import jwks
from ..lms.passback import passback
from ..lms.roster import roster
from .lti_platform import INSTRUCTOR, TestPlatform, member
from .roster import person

WITHDREW = 1  # the demo's LMS no longer lists its first student: passback lists them as not matched


def lms_members(students):
    """The LMS's view of the class: every demo student but the first (withdrawn), a late enrolee, an instructor."""
    found = [member(f"lti-{n:04d}", " ".join(person(s)[:2]), person(s)[2]) for n, s in enumerate(students)]
    return found[WITHDREW:] + [
        member("lti-late", "Leila Late", "leila.late@students.example.edu", sis_id="leila"),
        member("lti-teacher", "Ines Tructor", "teacher@example.edu", roles=[INSTRUCTOR]),
    ]


def post_demo_class(course, students):
    """Run the LTI commands on the graded demo ``course`` against a test platform; their output and the
    platform's scores, as lines. Stops when a posted score differs from the gradebook's total."""
    keyset = jwks(course)
    platform = TestPlatform(keyset.jwks, lms_members(students))
    lines = [f"LTI passback to a test platform (lti1p3platform) on 127.0.0.1; the kit's key: {keyset.private_key}"]
    with platform.running():
        with open(course.root / "nbgrader_config.py", "a") as config:
            config.write("\n# demo --lti: the test platform, for this run only\n" + platform.config_lines())
        for command, result in (
            ("$ python -m grader roster --lti", roster(course, route="lti")),
            ("$ python -m grader passback --lti --dry-run", passback(course, route="lti", dry_run=True)),
            ("$ python -m grader passback --lti", passback(course, route="lti")),
            ("$ python -m grader passback --lti   (again)", passback(course, route="lti")),
        ):
            lines += ["", command, str(result)]
    lines += ["", *held(platform, course)]
    return "\n".join(lines)


def held(platform, course):
    """What the platform holds: its line items, and each score beside the gradebook's total."""
    users = {m["user_id"]: m["name"] for m in platform.members}
    expected = {t.lms_user_id: t.score for t in totals(course)}
    lines = ["the platform holds:"]
    for item_id, item in platform.lineitems.items():
        lines.append(f"  line item {item_id}: {json.dumps({k: item[k] for k in ('label', 'scoreMaximum', 'tag')})}")
        for user, score in sorted(platform.posted(item_id).items(), key=lambda pair: users[pair[0]]):
            same = "=" if expected.get(user) == score["scoreGiven"] else "DIFFERS from"
            lines.append(
                f"    {users[user]:<22} {user}  {score['scoreGiven']:g} / {score['scoreMaximum']:g}  "
                f"{score['activityProgress']}/{score['gradingProgress']}  {same} the gradebook's "
                f"{expected.get(user, 0):g}"
            )
    if any("DIFFERS" in line for line in lines):
        raise SystemExit("\n".join(lines))
    lines.append(
        f"  {len(platform.received)} scores received in all: every one equals the gradebook's total less "
        "the late penalty"
    )
    return lines
