meta_caption = "graph chosen from results/reference/results.csv; planned by build/arenabench at rev f861921cf9 (this tree)"
