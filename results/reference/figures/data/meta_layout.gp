meta_caption = "graph chosen from results/reference/results.csv; planned by build/arenabench at rev f18991e89a (this tree)"
