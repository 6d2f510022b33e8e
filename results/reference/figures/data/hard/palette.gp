extra_names = ""
