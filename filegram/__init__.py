"""FileGram."""
