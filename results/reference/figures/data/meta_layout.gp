meta_caption = "graph chosen from results/reference/results.csv; planned by build/arenabench at rev 923da1aaf3+dirty (this tree)"
