meta_caption = "graph chosen from results/reference/results.csv; planned by build/arenabench at rev 246e3bbabd+dirty (this tree)"
