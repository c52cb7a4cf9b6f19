"""The demo class: submissions made from the release by a deterministic generator."""
