meta_caption = "local run, rev cda546115e, AMD EPYC (2 cores), gcc 12.2.0, 2026-11-30T03:47:30Z"
