meta_caption = "graph chosen from results/reference/results.csv; planned by build/arenabench at rev 0cd28a8775 (this tree)"
