"""The sandbox: student code runs in forked, isolated processes of a warm worker; verdicts are made outside."""
