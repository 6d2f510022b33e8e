meta_caption = "graph chosen from results/reference/results.csv; planned by build/arenabench at rev f908cf9485 (this tree)"
