"""Regeneration of every printed table and example, diffed against paper_tables/printed/."""
