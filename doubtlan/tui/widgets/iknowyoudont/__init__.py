"""I Know You Don't's table: its players, centre, prompt, hand, claims and results."""
