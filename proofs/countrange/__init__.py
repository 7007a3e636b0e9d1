"""zlcn2013: count-range and threshold consumers, the recurrences, and the approximation ratio."""
