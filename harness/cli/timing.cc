// Google Benchmark behind the timer interface (cli/timing.h).  Only this
// file is C++, and only the CLI links it.
#include <benchmark/benchmark.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cli/timing.h"

namespace {

struct Slot {
	ab_timed_fn fn;
	void *ctx;
	size_t index;
	ab_timing_result result;
	bool have_median = false;
	bool seen = false;
};

double to_ns(const benchmark::BenchmarkReporter::Run &run)
{
	return run.GetAdjustedRealTime() * 1e9 /
	       benchmark::GetTimeUnitMultiplier(run.time_unit);
}

// Collects per-benchmark results instead of printing them.
class CollectingReporter : public benchmark::BenchmarkReporter {
      public:
	explicit CollectingReporter(std::vector<Slot> &slots) : slots_(slots) {}
	bool ReportContext(const Context &) override { return true; }
	void ReportRuns(const std::vector<Run> &runs) override
	{
		for (const Run &run : runs) {
			Slot *s = find(run.run_name.function_name);
			if (!s)
				continue;
			s->seen = true;
			if (run.error_occurred) {
				s->result.error = 1;
				continue;
			}
			if (run.run_type == Run::RT_Aggregate) {
				s->result.repetitions = (int)run.repetitions;
				if (run.aggregate_name == "median") {
					s->result.median_ns = to_ns(run);
					s->have_median = true;
				} else if (run.aggregate_name == "stddev") {
					s->result.stddev_ns = to_ns(run);
				}
			} else {
				// Single repetition: its time is the median.
				if (!s->have_median)
					s->result.median_ns = to_ns(run);
				s->result.iterations = (uint64_t)run.iterations;
				s->result.repetitions = (int)run.repetitions;
			}
		}
	}
	void Finalize() override {}

      private:
	Slot *find(const std::string &name)
	{
		// Names are "ab/<index>/<label>".
		size_t a = name.find('/');
		if (a == std::string::npos)
			return nullptr;
		size_t idx = std::strtoul(name.c_str() + a + 1, nullptr, 10);
		return idx < slots_.size() ? &slots_[idx] : nullptr;
	}
	std::vector<Slot> &slots_;
};

// The values Google Benchmark would take without a word but that leave
// the timing columns empty or meaningless: repetitions below 1, a minimum
// time that is negative, not a number or infinite.  0, or -EINVAL with
// the message in err.
int check_flag(const char *arg, char *err, size_t errlen)
{
	static const char reps[] = "--benchmark_repetitions=";
	static const char min_time[] = "--benchmark_min_time=";
	char *end;

	errno = 0;
	if (std::strncmp(arg, reps, sizeof(reps) - 1) == 0) {
		const char *v = arg + sizeof(reps) - 1;
		long x = std::strtol(v, &end, 10);

		if (*v && !*end && !errno && x >= 1 && x <= 1000000)
			return 0;
		std::snprintf(err, errlen,
			      "--benchmark_repetitions expects a number of repetitions from 1 to 1000000, got '%s' (nothing done)",
			      v);
		return -EINVAL;
	}
	if (std::strncmp(arg, min_time, sizeof(min_time) - 1) == 0) {
		const char *v = arg + sizeof(min_time) - 1;
		double x = std::strtod(v, &end);

		if (*v && !*end && !errno && std::isfinite(x) && x >= 0 && x <= 1e9)
			return 0;
		std::snprintf(err, errlen,
			      "--benchmark_min_time expects seconds from 0 to 1e+09 (a plain number), got '%s' (nothing done)",
			      v);
		return -EINVAL;
	}
	return 0;
}

} // namespace

extern "C" int ab_timing_init(int *argc, char **argv, double default_min_time,
			      int default_repetitions, char *err,
			      size_t errlen)
{
	// Defaults first so that the user's flags, parsed later, win.
	static std::string min_time, reps;
	min_time = "--benchmark_min_time=" + std::to_string(default_min_time);
	reps = "--benchmark_repetitions=" + std::to_string(default_repetitions);
	static std::vector<char *> args;
	args.clear();
	args.push_back(argv[0]);
	args.push_back(&min_time[0]);
	args.push_back(&reps[0]);
	static char agg[] = "--benchmark_report_aggregates_only=true";
	args.push_back(agg);
	for (int i = 1; i < *argc; i++) {
		if (std::strncmp(argv[i], "--benchmark_", 12) != 0)
			continue;
		if (check_flag(argv[i], err, errlen))
			return -EINVAL;
		args.push_back(argv[i]);
	}
	int n = (int)args.size();
	args.push_back(nullptr);
	benchmark::Initialize(&n, args.data());
	if (n > 1) {
		std::snprintf(err, errlen,
			      "unknown Google Benchmark flag '%s' (see --help)",
			      args[1]);
		return -EINVAL;
	}
	// Remove the --benchmark_ flags from the caller's argv.
	int out = 1;
	for (int i = 1; i < *argc; i++)
		if (std::strncmp(argv[i], "--benchmark_", 12) != 0)
			argv[out++] = argv[i];
	argv[out] = nullptr;
	*argc = out;
	return 0;
}

extern "C" int ab_timing_run(const char *const *names, ab_timed_fn *fns,
			     void **ctxs, size_t count, ab_timing_cb cb,
			     void *user)
{
	std::vector<Slot> slots(count);
	for (size_t i = 0; i < count; i++) {
		slots[i].fn = fns[i];
		slots[i].ctx = ctxs[i];
		slots[i].index = i;
		slots[i].result = ab_timing_result{};
		std::string name = "ab/" + std::to_string(i) + "/" + names[i];
		Slot *s = &slots[i];
		benchmark::RegisterBenchmark(
			name.c_str(),
			[s](benchmark::State &state) {
				for (auto _ : state) {
					if (s->fn(s->ctx) != 0) {
						state.SkipWithError("planner failed");
						break;
					}
				}
			})
			->Unit(benchmark::kNanosecond)
			->UseRealTime();
	}
	CollectingReporter reporter(slots);
	benchmark::RunSpecifiedBenchmarks(&reporter);
	benchmark::ClearRegisteredBenchmarks();
	for (size_t i = 0; i < count; i++) {
		if (!slots[i].seen)
			continue; // filtered out: no result
		if (slots[i].result.repetitions <= 0)
			slots[i].result.repetitions = 1;
		cb(user, i, &slots[i].result);
	}
	return 0;
}

extern "C" const char *ab_timing_library(void)
{
	return "google-benchmark";
}

extern "C" const struct ab_timer ab_google_benchmark = {
	ab_timing_run,
	ab_timing_library,
};
