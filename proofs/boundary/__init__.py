"""The printed boundary alpha in {0, 1}: each statement at the ends of its closed alpha range."""
