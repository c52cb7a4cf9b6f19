"""An autograded exercise kit that teaches self-attention."""
