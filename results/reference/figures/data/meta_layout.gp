meta_caption = "graph chosen from results/reference/results.csv; planned by build/arenabench at rev 0147daf4e5 (this tree)"
