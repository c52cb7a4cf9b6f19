"""``collect``: each LMS's download layout, matched to the roster, the latest version of each notebook kept."""

import csv
import datetime
import json
import os
import shutil
import stat
import zipfile
from zoneinfo import ZoneInfo

import pytest
from nbgrader.api import Gradebook
from nbgrader.utils import parse_utc

from grader.api import collect, export
from grader.boundary import uploads
from grader.cli import main
from grader.collect.formats import brightspace, gradescope
from grader.course import venv_on_path

from ..conftest import ROOT, SOLUTIONS

BASICS, STEPS = "01_attention_basics.ipynb", "02_self_attention_step_by_step.ipynb"


@pytest.fixture
def course(tmp_path, empty_gradebook):
    """A course whose release folder holds the assignment's notebooks (collect only reads their names),
    with an empty gradebook."""
    course = tmp_path / "course"
    shutil.copytree(SOLUTIONS, course / "exercises" / "self_attention")
    shutil.copy(ROOT / "nbgrader_config.py", course)
    shutil.copy(empty_gradebook, course)
    return course


def enrol(course, *students):
    """Add (id, first, last, lms_user_id) students to the course's gradebook."""
    with venv_on_path(), Gradebook(f"sqlite:///{course}/gradebook.db") as gradebook:
        for student, first, last, lms in students:
            gradebook.add_student(student, first_name=first, last_name=last, lms_user_id=lms)


def notebook(tag):
    return json.dumps({"cells": [], "metadata": {"tag": tag}, "nbformat": 4, "nbformat_minor": 5})


def make_zip(path, files):
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return path


def tag(course, student, name=BASICS):
    return json.loads((course / "submitted" / student / "self_attention" / name).read_text())["metadata"]["tag"]


def timestamp(course, student):
    return parse_utc((course / "submitted" / student / "self_attention" / "timestamp.txt").read_text().strip())


def reasons(items):
    return {s.source.rsplit("/", 1)[-1]: s.reason for s in items}


RECEIPT = "Name: {name} ({user})\nAssignment: Self Attention\nDate Submitted: Monday, 2 March 2026\n"


def test_blackboard_keeps_underscored_usernames_apart_and_times_exact(course, tmp_path):
    enrol(course, ("dave_k", "Dave", "K", ""), ("anna_k", "Anna", "K", ""))
    early, late = "2026-03-02-17-45-10", "2026-03-02-18-05-00"
    export = make_zip(
        tmp_path / "gradebook_self_attention.zip",
        {
            f"Self Attention_dave_k_attempt_{early}_{BASICS}": notebook("dave stubs"),
            f"Self Attention_dave_k_attempt_{early}.txt": RECEIPT.format(name="Dave K", user="dave_k"),
            f"Self Attention_dave_k_attempt_{late}_{BASICS}": notebook("dave correct"),
            f"Self Attention_dave_k_attempt_{late}.txt": RECEIPT.format(name="Dave K", user="dave_k"),
            f"Self Attention_anna_k_attempt_{early}_{BASICS}": notebook("anna"),  # no receipt: the roster decides
            f"Self Attention_anna_k_attempt_{early}_{STEPS}": notebook("anna steps"),
            f"Self Attention_anna_k_attempt_2026-03-01-09-00-00_{STEPS}": notebook("anna old steps"),
        },
    )
    report = collect(export, course)

    assert tag(course, "dave_k") == "dave correct"  # the later attempt, not the stubs
    assert tag(course, "anna_k") == "anna" and tag(course, "anna_k", STEPS) == "anna steps"
    assert timestamp(course, "dave_k") == datetime.datetime(2026, 3, 2, 18, 5, 0)  # not 2026-03-03 03:00
    assert timestamp(course, "anna_k") == datetime.datetime(2026, 3, 2, 17, 45, 10)
    assert not (course / "submitted" / "k").exists()
    assert sorted((i.student, i.notebook) for i in report.imported) == [
        ("anna_k", BASICS),
        ("anna_k", STEPS),
        ("dave_k", BASICS),
    ]
    assert reasons(report.skipped)[f"Self Attention_dave_k_attempt_{early}_{BASICS}"].startswith("superseded")


def test_blackboard_local_time_is_converted_to_utc(course, tmp_path):
    export = make_zip(
        tmp_path / "bb.zip", {f"self_attention_jdoe42_attempt_2026-07-01-10-00-00_{BASICS}": notebook("jdoe42")}
    )
    collect(export, course, timezone="Europe/Paris")  # no roster: the name starts with the assignment id
    assert timestamp(course, "jdoe42") == datetime.datetime(2026, 7, 1, 8, 0, 0)


def test_blackboard_name_that_fits_two_students_is_ambiguous(course, tmp_path):
    enrol(course, ("dave_k", "Dave", "K", ""), ("k", "Kay", "", ""))
    export = make_zip(tmp_path / "bb.zip", {f"Self Attention_dave_k_attempt_2026-03-02-17-45-10_{BASICS}": "{}"})
    report = collect(export, course)
    assert not report.imported
    assert "could be dave_k, k" in report.ambiguous[0].reason


def test_canvas_late_anonymous_resubmitted_and_non_ascii(course, tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text(
        "id,first_name,last_name,email,lms_user_id\n"
        "jdoe,Jane,Doe,,12345\nzoe,Zoë,O'Brien-Łukasz,,\nanon1,A,Nonymous,,anon_Ab3dE\n",
        encoding="utf-8",
    )
    export = make_zip(
        tmp_path / "submissions.zip",
        {
            f"doejane_12345_987654_{BASICS}": notebook("jane first"),
            f"doejane_LATE_12345_987700_{BASICS[:-6]}-1.ipynb": notebook("jane re-upload"),
            f"obrienłukaszzoë_555_987600_{BASICS}": notebook("zoe"),
            f"LATE_anon_Ab3dE_987800_{STEPS}": notebook("anonymous"),
            f"anon_Zz9_987801_{STEPS}": notebook("unknown anonymous"),
            "doejane_12345_987702_notes_text.html": "<p>hi</p>",
        },
    )
    report = collect(export, course, roster_csv=roster)

    assert tag(course, "jdoe") == "jane re-upload"
    assert tag(course, "zoe") == "zoe"
    assert tag(course, "anon1", STEPS) == "anonymous"
    assert not (course / "submitted" / "jdoe" / "self_attention" / "timestamp.txt").exists()  # Canvas gives none
    assert "anonymous grading" in reasons(report.unmatched)[f"anon_Zz9_987801_{STEPS}"]
    log = json.loads(open(report.log).read())
    jane = next(f for f in log["files"] if f["student"] == "jdoe")
    assert jane["late"] is True and jane["identity"]["user_id"] == "12345"


def test_moodle_folder_flat_and_blind_modes(course, tmp_path):
    enrol(
        course,
        ("jdoe", "Jane", "Doe", ""),
        ("bruno", "Bruno", "Müller Lüdenscheidt", ""),
        ("blind", "B", "Lind", "7777"),
    )
    export = make_zip(
        tmp_path / "moodle.zip",
        {
            f"Jane Doe_123456_assignsubmission_file_/{BASICS}": notebook("jane folder"),
            f"Bruno Müller Lüdenscheidt_123457_assignsubmission_file_{BASICS}": notebook("bruno flat"),
            f"Participant_7777_assignsubmission_file/{STEPS}": notebook("blind"),
            "Jane Doe_123456_assignsubmission_onlinetext_/onlinetext.html": "<p>text</p>",
            f"Nobody Here_999_assignsubmission_file_/{BASICS}": notebook("stranger"),
        },
    )
    report = collect(export, course)
    assert tag(course, "jdoe") == "jane folder"
    assert tag(course, "bruno") == "bruno flat"
    assert tag(course, "blind", STEPS) == "blind"
    assert "not on the roster" in reasons(report.unmatched)[BASICS]
    assert "onlinetext" in reasons(report.skipped)["onlinetext.html"]


def test_brightspace_folder_and_flat_latest_of_each_notebook(course, tmp_path):
    enrol(course, ("ana", "Ana", "Lí", ""))
    export = make_zip(
        tmp_path / "Assignment 1 Download Mar 3, 2026 803 PM.zip",
        {
            f"Assignment 1/39786-640693 - Ana Lí - Mar 2, 2026 545 PM/{BASICS}": notebook("ana late basics"),
            f"Assignment 1/39785-640690 - Ana Lí - Mar 2, 2026 1010 AM/{BASICS}": notebook("ana early basics"),
            f"Assignment 1/39785-640691 - Ana Lí - Mar 2, 2026 1010 AM - {STEPS}": notebook("ana steps"),
            "Assignment 1/index.html": "<html></html>",
        },
    )
    report = collect(export, course, timezone="America/Toronto")
    assert tag(course, "ana") == "ana late basics" and tag(course, "ana", STEPS) == "ana steps"
    assert timestamp(course, "ana") == datetime.datetime(2026, 3, 2, 22, 45)  # 5:45 PM EST is 22:45 UTC
    assert reasons(report.skipped)["index.html"] == "Brightspace index page"


def test_gradescope_metadata_gives_identity_and_exact_utc_time(course, tmp_path):
    enrol(course, ("s42", "Ana", "Lí", ""))
    metadata = (
        ":submission_77:\n  :submitters:\n  - :name: Ana Lí\n    :sid: 's42'\n    :email: ana@example.org\n"
        "  :created_at: 2026-03-02 09:45:10.123456789 -0800\n  :score: 0.0\n"
    )
    export = make_zip(
        tmp_path / "gs.zip",
        {
            "assignment_9_export/submission_metadata.yml": metadata,
            f"assignment_9_export/submission_77/{BASICS}": notebook("gs"),
        },
    )
    collect(export, course)
    assert tag(course, "s42") == "gs"
    assert timestamp(course, "s42") == datetime.datetime(2026, 3, 2, 17, 45, 10, 123456)


@pytest.mark.parametrize(
    "text,utc",
    [
        ("Mar 2, 2026 1200 PM", datetime.datetime(2026, 3, 2, 17, 0)),  # noon, EST
        ("Mar 2, 2026 1200 AM", datetime.datetime(2026, 3, 2, 5, 0)),  # midnight
        ("Mar 2, 2026 1259 AM", datetime.datetime(2026, 3, 2, 5, 59)),
        ("Mar 2, 2026 105 PM", datetime.datetime(2026, 3, 2, 18, 5)),  # 1:05 PM, not 10:05
        ("Jul 1, 2026 930 AM", datetime.datetime(2026, 7, 1, 13, 30)),  # EDT
        ("Dec 31, 2026 1130 PM", datetime.datetime(2027, 1, 1, 4, 30)),  # the next day in UTC
        ("Mar 2, 2026 1345 PM", None),
        ("Mar 2, 2026 1260 PM", None),
        ("Foo 2, 2026 1010 AM", None),
    ],
)
def test_brightspace_times_on_a_twelve_hour_clock(text, utc):
    assert brightspace.parse_time(text, ZoneInfo("America/Toronto")) == utc


@pytest.mark.parametrize(
    "text,utc",
    [
        ("2026-03-02 09:45:10.123456789 -0800", datetime.datetime(2026, 3, 2, 17, 45, 10, 123456)),
        ("2026-03-02 09:45:10.5 -08:00", datetime.datetime(2026, 3, 2, 17, 45, 10, 500000)),
        ("2026-03-02 00:15:00 +05:30", datetime.datetime(2026, 3, 1, 18, 45)),
        ("2026-03-02 23:30:00 -0100", datetime.datetime(2026, 3, 3, 0, 30)),
        ("2026-03-02T12:00:00.365935-07:00", datetime.datetime(2026, 3, 2, 19, 0, 0, 365935)),
        ("2026-03-02 12:00:00 +0000", datetime.datetime(2026, 3, 2, 12, 0)),
        ("", None),
        ("2026-03-02 12:00:00", None),
        ("yesterday", None),
    ],
)
def test_gradescope_times_with_their_utc_offset(text, utc):
    assert gradescope.parse_time(text) == utc


def test_folder_of_students_is_copied_and_strays_reported(course, tmp_path, capsys):
    source = tmp_path / "handins"
    for path, text in {
        f"alice/{BASICS}": notebook("alice"),
        f"alice/{STEPS}": "not json at all",
        "alice/notes.txt": "hi",
        f"bob/extra/{BASICS}": notebook("nested"),
        "README.md": "export",
        "carol/99_other.ipynb": notebook("carol"),
        f".hidden/{BASICS}": notebook("dot"),
    }.items():
        (source / path).parent.mkdir(parents=True, exist_ok=True)
        (source / path).write_text(text)
    main(["collect", str(source), "--course", str(course)])

    assert tag(course, "alice") == "alice"
    assert (course / "submitted" / "alice" / "self_attention" / STEPS).read_text() == "not json at all"
    assert sorted(p.name for p in (course / "submitted").iterdir()) == ["alice"]
    printed = capsys.readouterr().out
    assert "imported 2 notebooks from 1 student\n" in printed
    assert "alice/notes.txt: not a notebook" in printed
    assert f"bob/extra/{BASICS}: name in no known layout" in printed
    assert "carol/99_other.ipynb: unknown notebook 99_other.ipynb" in printed
    assert "unsafe student id '.hidden'" in printed


def test_dry_run_reports_every_file_and_copies_nothing(course, tmp_path, capsys):
    enrol(course, ("jdoe", "Jane", "Doe", "12345"), ("jdoe2", "Jane", "Doe", ""))
    export = make_zip(
        tmp_path / "canvas.zip",
        {
            f"doejane_12345_987654_{BASICS}": notebook("matched"),
            f"doejane_67890_987655_{BASICS}": notebook("two Jane Does"),
            f"smithbob_11111_987656_{BASICS}": notebook("not enrolled"),
        },
    )
    main(["collect", str(export), "--course", str(course), "--dry-run"])
    printed = capsys.readouterr().out
    assert "would import 1 notebook from 1 student\n" in printed
    assert f"jdoe/{BASICS}  <-  doejane_12345_987654_{BASICS}  (canvas doejane, by id)" in printed
    assert f"doejane_67890_987655_{BASICS}: ambiguous: 2 students are called doejane (jdoe, jdoe2)" in printed
    assert f"smithbob_11111_987656_{BASICS}: smithbob is not on the roster" in printed
    assert not (course / "submitted").exists() and not (course / "collected").exists()


def test_replaced_files_are_kept_and_logged(course, tmp_path):
    first = make_zip(tmp_path / "one.zip", {f"self_attention_amy_attempt_2026-03-01-10-00-00_{BASICS}": notebook("1")})
    second = make_zip(tmp_path / "two.zip", {f"self_attention_amy_attempt_2026-03-02-10-00-00_{BASICS}": notebook("2")})
    collect(first, course)
    report = collect(second, course)
    assert tag(course, "amy") == "2"
    log = json.loads(open(report.log).read())
    replaced = {entry["file"].rsplit("/", 1)[-1]: entry["kept_as"] for entry in log["replaced"]}
    assert set(replaced) == {BASICS, "timestamp.txt"}
    assert json.loads(open(replaced[BASICS]).read())["metadata"]["tag"] == "1"


def test_malicious_zip_never_writes_outside_the_course(course, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    export = tmp_path / "evil.zip"
    with zipfile.ZipFile(export, "w") as archive:
        archive.writestr(f"../outside/{BASICS}", notebook("climb"))
        archive.writestr(f"/tmp/{BASICS}", notebook("absolute"))
        archive.writestr(f"..\\..\\outside\\{BASICS}", notebook("backslashes"))
        archive.writestr(f"self_attention_.._attempt_2026-03-01-10-00-00_{BASICS}", notebook("dots"))
        archive.writestr(f"self_attention_a/b_attempt_2026-03-01-10-00-00_{BASICS}", notebook("slash"))
        link = zipfile.ZipInfo(f"mallory/{BASICS}")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(link, str(outside / "target.ipynb"))
    before = sorted(p for p in tmp_path.rglob("*") if course not in p.parents and p != course)
    report = collect(export, course)

    assert sorted(p for p in tmp_path.rglob("*") if course not in p.parents and p != course) == before
    assert not report.imported
    why = {s.source: s.reason for s in report.skipped + report.unmatched + report.ambiguous}
    assert why[f"mallory/{BASICS}"] == "a symbolic link"
    assert sum("unsafe path" in r for r in why.values()) >= 1
    assert not (course / "submitted").exists() or not any((course / "submitted").rglob("*.ipynb"))


def test_a_folder_download_gives_regular_files_only(course, tmp_path):
    """Links (to the solutions, to a system file, to another folder), hard links and pipes are refused, never read."""
    solutions, source = course / "exercises" / "self_attention", tmp_path / "handins"
    for student in ("alice", "bob", "carol", "dave", "erin"):
        (source / student).mkdir(parents=True)
    (source / "alice" / BASICS).symlink_to(solutions / BASICS)
    (source / "alice" / STEPS).symlink_to("/etc/passwd")
    os.link(solutions / BASICS, source / "bob" / BASICS)
    os.mkfifo(source / "carol" / BASICS)
    (source / "erin" / BASICS).write_text(notebook("erin"))
    (source / "frank").symlink_to(source / "erin")
    (source / "gina").symlink_to(solutions)
    report = collect(source, course)

    assert [(i.student, i.notebook) for i in report.imported] == [("erin", BASICS)]
    assert {s.source: s.reason for s in report.skipped} == {
        f"alice/{BASICS}": "a symbolic link",
        f"alice/{STEPS}": "a symbolic link",
        "frank": "a symbolic link",
        "gina": "a symbolic link",
        f"bob/{BASICS}": "a hard link (a second name for another file)",
        f"carol/{BASICS}": "not a regular file",
    }
    assert sorted(p.name for p in (course / "submitted").iterdir()) == ["erin"]


def test_zip_bombs_are_refused(course, tmp_path, monkeypatch):
    export = tmp_path / "bombs.zip"
    with zipfile.ZipFile(export, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"alice/{BASICS}", notebook("alice") + " " * (8 << 20))  # compressed a thousand times
        archive.writestr(f"bob/{BASICS}", notebook("bob"))
        device = zipfile.ZipInfo(f"carol/{BASICS}")
        device.external_attr = (stat.S_IFCHR | 0o666) << 16
        archive.writestr(device, notebook("carol"))
    report = collect(export, course)
    assert [i.student for i in report.imported] == ["bob"]
    why = {s.source: s.reason for s in report.skipped}
    assert why[f"alice/{BASICS}"].startswith("compressed more than 100 to 1")
    assert why[f"carol/{BASICS}"] == "not a regular file"

    monkeypatch.setattr(uploads, "MAX_TOTAL_BYTES", 4 << 20)
    report = collect(export, course, dry_run=True)
    assert not report.imported and [(s.source, s.reason) for s in report.skipped] == [("bombs.zip", uploads.TOO_MUCH)]


def test_a_file_swapped_for_a_link_after_it_was_listed_is_not_read(tmp_path):
    (tmp_path / "alice").mkdir()
    (tmp_path / "alice" / BASICS).write_text(notebook("alice"))
    files, refused = uploads.entries(tmp_path)
    (tmp_path / "alice" / BASICS).unlink()
    (tmp_path / "alice" / BASICS).symlink_to("/etc/passwd")
    with pytest.raises(uploads.Refused, match="a symbolic link"):
        files[0].read()
    shutil.rmtree(tmp_path / "alice")
    (tmp_path / "alice").symlink_to("/etc")  # a folder on the way swapped too
    with pytest.raises(uploads.Refused, match="a symbolic link"):
        files[0].read()


def test_neither_folder_nor_zip_is_refused(course, tmp_path):
    (tmp_path / "grades.csv").write_text("a,b\n")
    with pytest.raises(ValueError, match="neither a folder nor a zip"):
        collect(tmp_path / "grades.csv", course)


def test_utf8_names_without_the_zip_utf8_flag_are_read_as_utf8(course, tmp_path):
    """Many zip tools write UTF-8 names without setting the flag that says so (Python then reads cp437)."""
    enrol(course, ("zoe", "Zoë", "Ørsted", ""))
    name = f"Zoë Ørsted_5_assignsubmission_file_/{BASICS}".encode()
    placeholder = "x" * len(name)
    export = make_zip(tmp_path / "moodle.zip", {placeholder: notebook("zoe")})
    data = export.read_bytes()
    assert data.count(placeholder.encode()) == 2  # the local header and the central directory
    export.write_bytes(data.replace(placeholder.encode(), name))
    with zipfile.ZipFile(export) as archive:
        assert not archive.infolist()[0].flag_bits & 0x800
    collect(export, course)
    assert tag(course, "zoe") == "zoe"


def test_an_older_download_never_replaces_a_newer_collected_version(course, tmp_path):
    newer = make_zip(tmp_path / "new.zip", {f"self_attention_amy_attempt_2026-03-02-10-00-00_{BASICS}": "{}"})
    older = make_zip(tmp_path / "old.zip", {f"self_attention_amy_attempt_2026-03-01-10-00-00_{BASICS}": notebook("o")})
    collect(newer, course)
    report = collect(older, course)
    assert (course / "submitted" / "amy" / "self_attention" / BASICS).read_text() == "{}" and not report.imported
    assert "older than amy's" in report.skipped[0].reason
    assert timestamp(course, "amy") == datetime.datetime(2026, 3, 2, 10)


STAMP = "2026-03-02-17-45-10"
RENAMED = {  # each LMS's download: {file: (the name handed in, the released notebook it is)}, and its other files
    "canvas": ({"doejane_12345_987654_01_attention_basics (1).ipynb": ("01_attention_basics (1).ipynb", BASICS)}, {}),
    "moodle": (
        {
            "Jane Doe_123456_assignsubmission_file_/02_Self_Attention_Step_By_Step.ipynb": (
                "02_Self_Attention_Step_By_Step.ipynb",
                STEPS,
            ),
            "Jane Doe_123456_assignsubmission_file_01_attention_basics-1.ipynb": (
                "01_attention_basics-1.ipynb",
                BASICS,
            ),
        },
        {},
    ),
    "blackboard": (
        {f"Self Attention_jdoe_attempt_{STAMP}_01_Attention_Basics.ipynb": ("01_Attention_Basics.ipynb", BASICS)},
        {f"Self Attention_jdoe_attempt_{STAMP}.txt": RECEIPT.format(name="Jane Doe", user="jdoe")},
    ),
    "brightspace": (
        {
            "A1/39785-640690 - Jane Doe - Mar 2, 2026 1010 AM/01_attention_basics (1).ipynb": (
                "01_attention_basics (1).ipynb",
                BASICS,
            ),
            "A1/39785-640691 - Jane Doe - Mar 2, 2026 1010 AM - 02 self attention step by step_1.ipynb": (
                "02 self attention step by step_1.ipynb",
                STEPS,
            ),
        },
        {},
    ),
    "gradescope": (
        {"submission_77/01_attention_basics (2).ipynb": ("01_attention_basics (2).ipynb", BASICS)},
        {
            "submission_metadata.yml": ":submission_77:\n  :submitters:\n  - :name: Jane Doe\n"
            "    :sid: '12345'\n  :created_at: 2026-03-02 09:45:10 -0800\n"
        },
    ),
}


@pytest.mark.parametrize("lms", sorted(RENAMED))
def test_a_renamed_notebook_is_the_released_one_in_every_lms(course, tmp_path, lms, capsys):
    enrol(course, ("jdoe", "Jane", "Doe", "12345"), ("bob", "Bob", "Roe", "67890"))
    renamed, others = RENAMED[lms]
    export = make_zip(tmp_path / f"{lms}.zip", {**{name: notebook(name) for name in renamed}, **others})
    main(["collect", str(export), "--course", str(course), "--dry-run"])
    printed = capsys.readouterr().out
    report = collect(export, course)

    assert sorted((i.student, i.notebook) for i in report.imported) == sorted(
        ("jdoe", released) for _, released in renamed.values()
    )
    for name, (handed_in, released) in renamed.items():
        assert tag(course, "jdoe", released) == name
        assert f"jdoe: {handed_in} → {released}" in printed
    assert all(not s.listed for s in report.skipped)  # only the LMS's receipts and metadata


def test_the_exact_name_wins_over_a_renamed_copy_of_the_same_submission(course, tmp_path, capsys):
    enrol(course, ("jdoe", "Jane", "Doe", ""))
    export = make_zip(
        tmp_path / "moodle.zip",
        {  # Moodle gives no time: only the names tell the files apart
            "Jane Doe_123456_assignsubmission_file_/01_attention_basics (1).ipynb": notebook("copy"),
            f"Jane Doe_123456_assignsubmission_file_/{BASICS}": notebook("exact"),
            "Jane Doe_123456_assignsubmission_file_/01_Attention_Basics.ipynb": notebook("other case"),
        },
    )
    report = collect(export, course)
    assert tag(course, "jdoe") == "exact"
    assert [s.kind for s in report.skipped] == ["older version", "older version"]
    assert "2 older versions" in str(report)


def test_two_released_notebooks_are_never_taken_for_one():
    from grader.collect.names import release_name

    released = {"Lab.ipynb", "lab.ipynb", "part_1.ipynb", "part_2.ipynb", "01_attention_basics.ipynb"}
    assert release_name("lab.ipynb", released) == "lab.ipynb"
    assert release_name("LAB.ipynb", released) is None  # Lab or lab: only the exact names
    assert release_name("lab (1).ipynb", released) is None
    assert release_name("Part 2.ipynb", released) == "part_2.ipynb"  # not part_1 with a copy suffix
    assert release_name("part_2 (1).ipynb", released) == "part_2.ipynb"
    assert release_name("part_1_1.ipynb", released) == "part_1.ipynb"
    assert release_name("part_3.ipynb", released) is None
    assert release_name("01 Attention Basics 2.ipynb", released) == "01_attention_basics.ipynb"
    assert release_name("01_attention_basics.py", released) is None


@pytest.mark.parametrize("on_roster", ["Ab3dE", "anon_Ab3dE"])
def test_canvas_anonymous_id_on_the_roster_with_or_without_anon(course, tmp_path, on_roster):
    enrol(course, ("jdoe", "Jane", "Doe", on_roster))
    report = collect(make_zip(tmp_path / "canvas.zip", {f"anon_Ab3dE_987800_{STEPS}": notebook("anonymous")}), course)
    assert [(i.student, i.notebook) for i in report.imported] == [("jdoe", STEPS)]
    assert tag(course, "jdoe", STEPS) == "anonymous"


def test_canvas_anonymous_without_roster_is_graded_and_exported_under_its_anonymous_id(course, tmp_path):
    report = collect(
        make_zip(
            tmp_path / "canvas.zip",
            {f"LATE_anon_Ab3dE_987800_{STEPS}": notebook("anon"), f"anon_Zz9_987801_{BASICS}": notebook("zz")},
        ),
        course,
    )
    assert sorted((i.student, i.notebook) for i in report.imported) == [("anon_Ab3dE", STEPS), ("anon_Zz9", BASICS)]
    assert tag(course, "anon_Ab3dE", STEPS) == "anon"
    with venv_on_path(), Gradebook(f"sqlite:///{course}/gradebook.db") as gradebook:  # as autograde leaves it
        gradebook.add_assignment("self_attention")
        gradebook.add_student("anon_Ab3dE")
    sheet = export(course, "self_attention", format="canvas", column="Self-attention (4242)")
    rows = list(csv.reader(sheet.path.open(encoding="utf-8")))
    assert rows[2][:2] == ["anon_Ab3dE", "anon_Ab3dE"] and not sheet.omitted
