meta_caption = "graph chosen from results/reference/results.csv; planned by build/arenabench at rev fac76f4929 (this tree)"
