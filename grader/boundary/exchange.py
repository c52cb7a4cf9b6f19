"""``nbgrader collect`` from nbgrader's own exchange (JupyterHub), with each submission read as data.

nbgrader's collect copies what a student left in the exchange's inbound folder with ``shutil.copytree``, which
follows links: a student who puts a link there (to the course's solutions, say) would hand in what it points at.
:class:`RegularFilesCollect` (``c.ExchangeFactory.collect`` in ``nbgrader_config.py``) reads the submission
through :mod:`grader.boundary.uploads` into a folder of its own, then lets nbgrader copy that folder as it copies
any submission.
"""

import os
import pathlib
import tempfile

from nbgrader.exchange.default import ExchangeCollect

from . import uploads


class RegularFilesCollect(ExchangeCollect):
    """nbgrader's collect, taking only a submission's regular files; each file left out is logged, with whose."""

    def do_copy(self, src, dest, log=None):
        """nbgrader's copy, to ``dest``, of a folder of ``src``'s regular files; nothing in ``src`` is followed."""
        student = self._path_to_record(src)["username"]
        try:
            folder = os.open(src, uploads.FOLDER_FLAGS)
        except OSError as error:
            why = uploads.LINK if os.path.islink(src) else f"not a folder that can be read ({error.strerror})"
            self.log.warning("%s's submission %s was not collected: %s", student, os.path.basename(src), why)
            return
        try:
            with tempfile.TemporaryDirectory() as temporary:
                clean = pathlib.Path(temporary, "submission")
                clean.mkdir()  # with the instructor's umask, as nbgrader copies its mode
                # The folder opened above, by its descriptor: a student who swaps it for a link changes nothing.
                self._copy_regular_files(f"/proc/self/fd/{folder}", clean, student)
                super().do_copy(str(clean), dest, log)
        finally:
            os.close(folder)

    def _copy_regular_files(self, source, clean, student):
        """Write the regular files of ``source`` under ``clean``, until they pass nbgrader's limit on a submission."""
        found, refused = uploads.entries(source)
        written = 0
        for entry, data in uploads.read_each(found, refused):
            path = clean / entry.path
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            written += len(data)
            if written > 1000 * self.coursedir.max_dir_size:
                break  # nbgrader's own check refuses the submission
        for shown, why in refused:
            self.log.warning("%s's %s was not collected: %s", student, shown, why)
