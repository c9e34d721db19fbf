"""The `somaliland` command line."""
