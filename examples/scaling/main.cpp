// scaling: how the cost of a Model, its Data and the O(N) algorithms grows with the number of bodies.
//
// For binary trees (topologies::binary_tree, heap numbering, cut to n bodies) and unbranched chains
// (topologies::chain) of revolute joints with random inertias (robots::random_model), prints one
// Markdown table row per model: the time to build the Model and its Data, the bytes the Data occupies
// (Data::memory_bytes: every member's capacity × element size), the packed H's entries (n + D1) and the
// median time of rnea, aba and crba. A binary tree has depth ~log2 n, so D1 ~ n log2 n and everything
// grows as O(n log n) or better; a chain has D1 = n(n − 1)/2, so its packed H (and only that) is O(n²).
//
// Usage: scaling [max_tree_bodies [max_chain_bodies]]  (defaults 100000 and 10000). The
// table in docs/performance.md#scaling is this program's output (built with the release preset). Exits non-zero when a
// result is not finite.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <treedyn/algorithms/aba.hpp>
#include <treedyn/algorithms/crba.hpp>
#include <treedyn/algorithms/rnea.hpp>
#include <treedyn/model/configuration.hpp>
#include <treedyn/model/data.hpp>
#include <treedyn/robots/random_tree.hpp>
#include <treedyn/topology/generators.hpp>

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// The median time of `call` over at least 3 runs and about 0.2 s in all (the first run included).
template <class F>
double median_seconds(F&& call) {
  std::vector<double> times;
  double total = 0.0;
  while (times.size() < 3 || (total < 0.2 && times.size() < 1000)) {
    const Clock::time_point start = Clock::now();
    call();
    times.push_back(seconds_since(start));
    total += times.back();
  }
  std::nth_element(times.begin(), times.begin() + static_cast<std::ptrdiff_t>(times.size() / 2), times.end());
  return times[times.size() / 2];
}

/// A time in the unit that suits it.
std::string format_time(double s) {
  char text[32];
  if (s < 1e-3) std::snprintf(text, sizeof text, "%.1f µs", s * 1e6);
  else if (s < 1.0) std::snprintf(text, sizeof text, "%.2f ms", s * 1e3);
  else std::snprintf(text, sizeof text, "%.2f s", s);
  return text;
}

double g_sink = 0.0;  // keeps the timed results alive; checked at exit
std::string g_failed;  // the (shape, n, algorithm) whose result was not finite, named at exit

void row(const char* shape, const std::vector<int>& lambda) {
  const int n = static_cast<int>(lambda.size());
  Clock::time_point start = Clock::now();
  const treedyn::Model<double> model = treedyn::robots::random_model<double>(lambda, 2026);
  const double t_model = seconds_since(start);
  start = Clock::now();
  treedyn::Data<double> data(model);
  const double t_data = seconds_since(start);
  const Eigen::VectorXd q = treedyn::random_configuration(model, 7);
  const Eigen::VectorXd qd = Eigen::VectorXd::LinSpaced(model.nv(), -1.0, 1.0);
  const Eigen::VectorXd qdd = Eigen::VectorXd::LinSpaced(model.nv(), 1.0, -1.0);
  const auto check = [&](const char* algorithm, bool finite) {
    if (!finite) g_failed += std::string(" ") + shape + " n = " + std::to_string(n) + ": " + algorithm + ";";
  };
  check("rnea", treedyn::rnea(model, data, q, qd, qdd).allFinite());
  check("aba", treedyn::aba(model, data, q, qd, qdd).allFinite());
  check("crba", treedyn::crba(model, data, q).allFinite());
  const double t_rnea = median_seconds([&] { g_sink += treedyn::rnea(model, data, q, qd, qdd)(0); });
  const double t_aba = median_seconds([&] { g_sink += treedyn::aba(model, data, q, qd, qdd)(0); });
  const double t_crba = median_seconds([&] { g_sink += treedyn::crba(model, data, q)(0); });
  std::printf("| %s | %d | %d | %s | %s | %.1f MB | %s | %s | %s |\n", shape, n, model.h_pattern().nonzeros(),
              format_time(t_model).c_str(), format_time(t_data).c_str(),
              static_cast<double>(data.memory_bytes()) / 1e6, format_time(t_rnea).c_str(),
              format_time(t_aba).c_str(), format_time(t_crba).c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const int max_tree = argc > 1 ? std::atoi(argv[1]) : 100000;
  const int max_chain = argc > 2 ? std::atoi(argv[2]) : 10000;
  std::printf("| shape | bodies n | packed H (n + D1) | Model build | Data build | Data bytes | rnea | aba | crba |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  const treedyn::ParentArray heap = treedyn::topologies::binary_tree(17);  // 131071 bodies
  for (const int n : {1000, 10000, 100000}) {
    if (n > max_tree || n > static_cast<int>(heap.size())) break;
    row("binary tree", std::vector<int>(heap.begin(), heap.begin() + n));
  }
  for (const int n : {1000, 3000, 10000}) {
    if (n > max_chain) break;
    row("chain", treedyn::topologies::chain(n));
  }
  if (!g_failed.empty()) std::printf("FAILED: a result was not finite:%s\n", g_failed.c_str());
  else if (!std::isfinite(g_sink)) std::printf("FAILED: a timed result was not finite\n");
  return g_failed.empty() && std::isfinite(g_sink) ? 0 : 1;
}
