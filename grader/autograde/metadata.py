"""nbgrader's cell-metadata check, with its JSON schema checked once per process instead of once per cell.

nbgrader's CheckCellMetadata validates each nbgrader cell with ``jsonschema.validate``, which first checks the
schema itself against JSON Schema's meta-schema, on every call: most of the check's time when a class is graded.
:class:`CheckCellMetadataOnce` is nbgrader's preprocessor with nbgrader's own validator (the same rules, the same
errors) but for that call: what ``jsonschema.validate`` does (the best-matching error of the schema's validator,
raised) is done with a validator built, and its schema checked, once.
"""

import functools
import traceback

from jsonschema.exceptions import best_match
from jsonschema.validators import validator_for
from nbgrader.nbgraderformat import MetadataValidator, ValidationError
from nbgrader.nbgraderformat.common import BaseMetadataValidator
from nbgrader.preprocessors import CheckCellMetadata


class _SchemaCheckedOnce(BaseMetadataValidator):
    """nbgrader's base validation of one cell (its schema version, then its schema), the schema's validator built
    once. A cell of another schema version gets nbgrader's own error."""

    def validate_cell(self, cell):
        if "nbgrader" not in cell.metadata:
            return
        meta = cell.metadata["nbgrader"]
        if meta.get("schema_version", 0) != self.schema_version:
            return super().validate_cell(cell)
        error = best_match(self._schema_validator.iter_errors(meta))
        if error is not None:
            raise error

    @functools.cached_property
    def _schema_validator(self):
        """A validator of nbgrader's schema (the schema checked against its meta-schema here, once)."""
        cls = validator_for(self.schema)
        cls.check_schema(self.schema)
        return cls(self.schema)


class KitMetadataValidator(MetadataValidator, _SchemaCheckedOnce):
    """nbgrader's validator (the current version's rules, grade ids unique in a notebook), over the base above:
    nbgrader's ``super()`` call from its version's rules lands on :class:`_SchemaCheckedOnce`."""


@functools.cache
def kit_validator():
    """One validator per process (nbgrader's reads its schema files each time one is made)."""
    return KitMetadataValidator()


class CheckCellMetadataOnce(CheckCellMetadata):
    """nbgrader's CheckCellMetadata (same verdicts, same log and error) with :class:`KitMetadataValidator`."""

    def preprocess(self, nb, resources):
        try:
            kit_validator().validate_nb(nb)
        except ValidationError:
            self.log.error(traceback.format_exc())
            msg = "Notebook failed to validate; the nbgrader metadata may be corrupted."
            self.log.error(msg)
            raise ValidationError(msg) from None
        return nb, resources
