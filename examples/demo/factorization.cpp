// Part 2 of the demo: the sparse LTDL factorization of random SPD matrices with H's branch-induced
// pattern, against Eigen's dense LLT, for five topology families at about 15 to 255 DoFs (see main.cpp).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include <treedyn/kernels/kernels.hpp>
#include <treedyn/kernels/random_tree_matrix.hpp>
#include <treedyn/topology/topology.hpp>

#include "demo.hpp"

namespace demo {
namespace {

// ---- topologies ---------------------------------------------------------------------------------

struct Topology {
  const char* name;             // family name for the table
  const char* parameter;        // how the generator parameter is shown ("m=", "n=", "4x")
  long long (*size_of)(int p);  // n of the expanded parent array for generator parameter p
  ParentArray (*make)(int p);   // the expanded parent array (one entry per DoF)
};

// Featherstone (2005) §6, Fig. 6: a torso on a 6-DoF joint (expanded to a 6-node chain) carrying 4 limbs of
// per_limb revolute joints; n = 6 + 4 per_limb.
ParentArray make_humanoid(int per_limb) {
  return treedyn::expand_parent_array(treedyn::topologies::humanoid(4, per_limb),
                                      treedyn::topologies::humanoid_dofs(4, per_limb, 6));
}

const std::array<Topology, 5> kTopologies{{
    {"chain", "n=", [](int p) { return static_cast<long long>(p); },
     [](int p) { return treedyn::topologies::chain(p); }},
    {"side branches", "m=", [](int p) { return 2LL * p; },
     [](int p) { return treedyn::topologies::short_side_branches(p); }},
    {"binary tree", "m=", [](int p) { return (1LL << p) - 1; },
     [](int p) { return treedyn::topologies::binary_tree(p); }},
    {"grid tree", "m=", [](int p) { return static_cast<long long>(p) * p; },
     [](int p) { return treedyn::topologies::grid_spanning_tree(p); }},
    {"humanoid", "4x", [](int p) { return 6LL + 4LL * p; }, make_humanoid},
}};

const std::array<int, 5> kTargetSizes{15, 30, 63, 127, 255};

// The generator parameter whose n is nearest to target (ties: the smaller n). n grows with p.
int nearest_parameter(const Topology& t, int target) {
  int best = 1;
  long long best_gap = std::llabs(t.size_of(1) - target);
  for (int p = 2; t.size_of(p) <= 2LL * target; ++p) {
    const long long gap = std::llabs(t.size_of(p) - target);
    if (gap < best_gap) {
      best = p;
      best_gap = gap;
    }
  }
  return best;
}

// max|L^T D L - A| / max|A| for the in-place LTDL factors F of A (D on the diagonal, unit-diagonal L
// strictly below it), evaluated in double from the factors as stored in their own scalar type.
template <class FactorMatrix>
double ltdl_residual(const FactorMatrix& F, const Eigen::MatrixXd& A) {
  const Eigen::MatrixXd Fd = F.template cast<double>();
  Eigen::MatrixXd L = Fd.triangularView<Eigen::StrictlyLower>();
  L.diagonal().setOnes();
  const Eigen::MatrixXd R = L.transpose() * Fd.diagonal().asDiagonal() * L - A;
  return R.cwiseAbs().maxCoeff() / A.cwiseAbs().maxCoeff();
}

// The dense lower triangle of the factors held in packed ancestor rows (zeros elsewhere).
template <class S>
Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic> unpacked(const Eigen::Matrix<S, Eigen::Dynamic, 1>& values,
                                                          const treedyn::AncestorPattern& pattern) {
  Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic> F =
      Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>::Zero(pattern.size(), pattern.size());
  pattern.unpack(values, F);
  return F;
}

// ---- one table row ------------------------------------------------------------------------------

struct Row {
  std::string family;  // topology family ("binary tree")
  std::string label;   // family and generator parameter ("binary tree m=8")
  const char* scalar = "";
  treedyn::CostMetrics cost;
  long long nnz = 0;            // nonzeros of A, counted in the matrix
  double op_ratio = 0.0;        // dense_to_sparse_ratio
  double resid = 0.0;           // ltdl residual
  double resid_packed = 0.0;    // ltdl_packed residual (checked, not printed)
  double bound = 0.0;           // 100 n eps
  double t_copy = 0.0;          // the dense n x n copy alone, ns per call
  double t_ltdl = 0.0, t_packed = 0.0, t_llt = 0.0;  // ns per call, input copy subtracted
  std::vector<std::string> failures;

  double time_ratio() const { return t_llt / t_packed; }  // measured dense / sparse
  double packed_speedup() const { return t_ltdl / t_packed; }
  // Every kernel measurably slower than its input copy: short batches (--quick) on a small matrix can
  // leave a net time at or below zero, which has no ratio.
  bool timed() const { return t_ltdl > 0.0 && t_packed > 0.0 && t_llt > 0.0; }
  bool ok() const { return failures.empty(); }
};

template <class S>
Row run_row(const Topology& topology, const std::string& label, const ParentArray& lambda,
            const Eigen::MatrixXd& A_double, const BoolMatrix& pattern, const TimingConfig& cfg) {
  using Mat = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;
  using Vec = Eigen::Matrix<S, Eigen::Dynamic, 1>;
  const int n = static_cast<int>(lambda.size());

  Row row;
  row.family = topology.name;
  row.label = label;
  row.scalar = scalar_name<S>();
  row.cost = treedyn::cost_metrics(lambda);
  row.op_ratio = treedyn::dense_to_sparse_ratio<double>(lambda);
  row.bound = 100.0 * n * static_cast<double>(std::numeric_limits<S>::epsilon());

  const Mat A = A_double.cast<S>();
  const Eigen::MatrixXd A_ref = A.template cast<double>();  // the matrix actually factorized
  const treedyn::AncestorPattern packing(lambda);
  Vec A_packed(packing.nonzeros());  // the lower triangle's n + D1 structural entries
  packing.pack(A, A_packed);

  // A's pattern must be exactly the branch-induced one, with n + 2 D1 nonzeros (Featherstone (2005) §6).
  bool pattern_ok = true;
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      const bool nonzero = A(i, j) != S(0);
      row.nnz += nonzero ? 1 : 0;
      pattern_ok = pattern_ok && (nonzero == pattern(i, j));
    }
  }
  if (!pattern_ok) row.failures.emplace_back("A's pattern is not the branch-induced one");
  if (row.nnz != row.cost.nonzeros()) row.failures.emplace_back("nonzeros of A != n + 2 D1");

  // Accuracy, outside the timed loops.
  Mat W = A;
  Vec W_packed = A_packed;
  if (!treedyn::ltdl(W, lambda).ok()) row.failures.emplace_back("ltdl: non-positive pivot");
  if (!treedyn::ltdl_packed(W_packed, packing).ok()) {
    row.failures.emplace_back("ltdl_packed: non-positive pivot");
  }
  row.resid = ltdl_residual(W, A_ref);
  row.resid_packed = ltdl_residual(unpacked(W_packed, packing), A_ref);
  if (!(row.resid <= row.bound)) row.failures.emplace_back("ltdl residual above 100 n eps");
  if (!(row.resid_packed <= row.bound)) row.failures.emplace_back("ltdl_packed residual above 100 n eps");
  Eigen::LLT<Mat> llt(n);
  llt.compute(A);
  if (llt.info() != Eigen::Success) row.failures.emplace_back("Eigen LLT failed");

  // Timing.
  bool timed_ok = true;
  auto copy_dense = [&] {
    W = A;
    g_sink = static_cast<double>(W(n - 1, n - 1));
  };
  auto copy_packed = [&] {
    W_packed = A_packed;
    g_sink = static_cast<double>(W_packed(0));
  };
  auto faithful = [&] {
    W = A;
    timed_ok = treedyn::ltdl(W, lambda).ok() && timed_ok;
    g_sink = static_cast<double>(W(0, 0));
  };
  auto optimised = [&] {
    W_packed = A_packed;
    timed_ok = treedyn::ltdl_packed(W_packed, packing).ok() && timed_ok;
    g_sink = static_cast<double>(W_packed(0));
  };
  auto dense = [&] {
    llt.compute(A);
    g_sink = static_cast<double>(llt.matrixLLT()(0, 0));
  };
  const Timing t = measure(cfg, contender(faithful, copy_dense), contender(optimised, copy_packed),
                           contender(dense, copy_dense));
  if (!timed_ok || llt.info() != Eigen::Success) row.failures.emplace_back("a timed factorization failed");
  row.t_copy = 0.5 * (t.copy_ns[0] + t.copy_ns[2]);  // the dense copy, as timed beside ltdl and LLT
  row.t_ltdl = t.net_ns[0];
  row.t_packed = t.net_ns[1];
  row.t_llt = t.net_ns[2];
  return row;
}

// ---- output -------------------------------------------------------------------------------------

void print_header() {
  std::printf("%-19s %-6s %4s %9s %10s %9s | %10s %12s %10s | %10s\n", "", "", "", "nonzeros", "LTDL ops",
              "ltdl", "ns: ltdl", "ltdl_packed", "Eigen LLT", "LLT time /");
  std::printf("%-19s %-6s %4s %9s %10s %9s | %10s %12s %10s | %10s\n", "topology", "scalar", "n", "of H",
              "dense/tree", "residual", "(faithful)", "(packed)", "(dense)", "packed");
}

/// One table row; with --quick the LLT / packed column stays empty (no ratio from rough timings).
void print_row(const Row& r, bool quick) {
  const double n2 = static_cast<double>(r.cost.n) * static_cast<double>(r.cost.n);
  const std::string ratio = r.timed() && !quick ? format("%10.2f", r.time_ratio()) : "         -";
  // A net time at or below zero (a batch where the machine was busier during the kernel's copy) is no time.
  const auto ns = [](double t, int width) { return t > 0.0 ? format("%*.0f", width, t) : format("%*s", width, "-"); };
  std::printf("%-19s %-6s %4d %8.1f%% %10.1f %9.1e | %s %s %s | %s%s\n", r.label.c_str(), r.scalar, r.cost.n,
              100.0 * static_cast<double>(r.nnz) / n2, r.op_ratio, r.resid, ns(r.t_ltdl, 10).c_str(),
              ns(r.t_packed, 12).c_str(), ns(r.t_llt, 10).c_str(), ratio.c_str(), r.ok() ? "" : "  FAIL");
  for (const std::string& f : r.failures) std::printf("    FAIL: %s\n", f.c_str());
  std::fflush(stdout);
}

const Row* find_row(const std::vector<Row>& rows, const std::string& label, const std::string& scalar) {
  for (const Row& r : rows) {
    if (r.label == label && r.scalar == scalar) return &r;
  }
  return nullptr;
}

// The timed rows of one scalar type whose n is the largest of their topology family (n ~ 255), in table order.
std::vector<const Row*> largest_per_family(const std::vector<Row>& rows, const std::string& scalar) {
  std::vector<const Row*> out;
  for (const Row& r : rows) {
    if (r.scalar != scalar || !r.timed()) continue;
    if (!out.empty() && out.back()->family == r.family) {
      if (r.cost.n > out.back()->cost.n) out.back() = &r;
    } else {
      out.push_back(&r);
    }
  }
  return out;
}

/// The q-quantile (0 ≤ q ≤ 1) of v by linear interpolation between order statistics; v non-empty.
double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double x = q * static_cast<double>(v.size() - 1);
  const std::size_t i = static_cast<std::size_t>(x);
  return i + 1 < v.size() ? v[i] + (x - static_cast<double>(i)) * (v[i + 1] - v[i]) : v[i];
}

void print_timing_summary(const std::vector<Row>& rows);

void print_summary(const std::vector<Row>& rows, bool quick) {
  std::printf("What the numbers show:\n");
  if (!quick) print_timing_summary(rows);

  // Accuracy.
  const Row* worst = nullptr;
  double worst_packed = 0.0;
  std::size_t failed = 0;
  for (const Row& r : rows) {
    if (!r.ok()) ++failed;
    if (worst == nullptr || r.resid / r.bound > worst->resid / worst->bound) worst = &r;
    worst_packed = std::max(worst_packed, r.resid_packed / r.bound);
  }
  if (worst != nullptr) {
    print_bullet(format("Accuracy: the largest ltdl residual is %.2g%% of its bound 100 n eps (%s, %s), the "
                        "largest of ltdl_packed %.2g%%; %zu of %zu rows failed a check.",
                        100.0 * worst->resid / worst->bound, worst->label.c_str(), worst->scalar,
                        100.0 * worst_packed, failed, rows.size()));
  }
}

/// The timing bullets (not with --quick: its batches are too short for a ratio to mean anything).
void print_timing_summary(const std::vector<Row>& rows) {
  // The 30-DoF humanoid of Featherstone (2005) §6.
  const Row* hd = find_row(rows, "humanoid 4x6", "double");
  const Row* hf = find_row(rows, "humanoid 4x6", "float");
  if (hd != nullptr && hf != nullptr && hd->timed() && hf->timed()) {
    const treedyn::CostMetrics& c = hd->cost;
    const treedyn::CostMetrics dense = treedyn::dense_cost_metrics(c.n);
    const long long n2 = static_cast<long long>(c.n) * c.n;
    print_bullet(format(
        "The 30-DoF humanoid's H has %lld nonzeros of %lld (%.0f%% branch-induced zeros). Featherstone "
        "(2005) counts its LTDL at D1 div + D2 (mul+add) = %lldm + %llda against %lldm + %llda dense, %.2fx "
        "fewer operations; measured, LLT took %.2fx (double) and %.2fx (float) the time of ltdl_packed.",
        hd->nnz, n2, 100.0 * static_cast<double>(n2 - hd->nnz) / static_cast<double>(n2), c.D1 + c.D2,
        c.D2, dense.D1 + dense.D2, dense.D2, hd->op_ratio, hd->time_ratio(), hf->time_ratio()));
  }

  // Predicted against measured gain at the largest size of each family.
  const std::vector<const Row*> big = largest_per_family(rows, "double");
  if (!big.empty()) {
    std::string text = "Predicted op-count ratio -> measured LLT / ltdl_packed at the largest n (double):";
    double lo = 1e300, hi = 0.0;
    for (std::size_t i = 0; i < big.size(); ++i) {
      const Row* r = big[i];
      text += format(" %s: %.3g -> %.3g%s", r->label.c_str(), r->op_ratio, r->time_ratio(),
                     i + 1 < big.size() ? "," : ".");
      lo = std::min(lo, r->time_ratio() / r->op_ratio);
      hi = std::max(hi, r->time_ratio() / r->op_ratio);
    }
    std::vector<const Row*> by_predicted = big, by_measured = big;
    std::sort(by_predicted.begin(), by_predicted.end(),
              [](const Row* a, const Row* b) { return a->op_ratio < b->op_ratio; });
    std::sort(by_measured.begin(), by_measured.end(),
              [](const Row* a, const Row* b) { return a->time_ratio() < b->time_ratio(); });
    text += format(" The measurements rank these topologies %s the prediction and reach %.0f%% to %.0f%% of it.",
                   by_predicted == by_measured ? "as" : "differently from", 100.0 * lo, 100.0 * hi);
    print_bullet(text);
  }

  // Faithful against optimised kernel, and float against double.
  std::vector<double> speedups, float_gain_packed, float_gain_llt;
  for (const Row& r : rows) {
    if (!r.timed()) continue;
    speedups.push_back(r.packed_speedup());
    if (r.scalar == std::string("float")) {
      const Row* d = find_row(rows, r.label, "double");
      if (d != nullptr && d->timed()) {
        float_gain_packed.push_back(d->t_packed / r.t_packed);
        float_gain_llt.push_back(d->t_llt / r.t_llt);
      }
    }
  }
  // Medians and quartiles over the rows, never the extremes: one row's time can be one noisy sample.
  if (!speedups.empty() && !float_gain_packed.empty())
    print_bullet(format("ltdl_packed ran a median %.1fx as fast as the faithful ltdl over the %zu timed rows (middle "
                        "half of the rows: %.1fx to %.1fx). Going from double to float sped up ltdl_packed by a "
                        "median %.2fx, LLT by %.2fx.",
                        median(speedups), speedups.size(), quantile(speedups, 0.25), quantile(speedups, 0.75),
                        median(float_gain_packed), median(float_gain_llt)));
}

}  // namespace

// Part 2: the factorization table. Returns true if every row passed its checks.
bool run_factorization(const TimingConfig& cfg, bool quick) {
  std::printf("Part 2: sparse L^T D L factorization of H for branched kinematic trees\n\n");

  const ParentArray humanoid30 = make_humanoid(6);
  const BoolMatrix pattern30 = branch_pattern(humanoid30);
  std::printf("Pattern of H for the 30-DoF humanoid of Featherstone (2005) §6, from its expanded parent array: rows 0-5\n"
              "are the torso's 6-DoF joint, then four limbs of 6 revolute joints; x = nonzero (%lld of %lld),\n"
              ". = branch-induced zero.\n\n",
              static_cast<long long>(pattern30.count()), static_cast<long long>(pattern30.size()));
  print_pattern(pattern30);

  std::printf(
      "\nThe study factors a random SPD matrix A = J^T J + I with exactly H's pattern for %zu topology families at\n"
      "%zu sizes (n ~ 15 to 255), in float and double, and checks every factorization. Shown: n ~ 30 and n ~ 255\n"
      "in double, and every row that failed a check. Columns: nonzeros of H as a share of n^2; the dense/tree\n"
      "ratio of LTDL operation counts (Featherstone (2005) D1 + 2 D2); ltdl's residual max|L^T D L - A| / max|A|;\n"
      "ns per factorization (median of %d batches >= %g ms, each minus its input copy)%s.\n\n",
      kTopologies.size(), kTargetSizes.size(), cfg.batches, cfg.batch_seconds * 1e3,
      quick ? "; --quick: rough timings, no ratio is claimed from them" : "");
  print_header();

  std::vector<Row> rows;
  std::uint64_t seed = 1;
  for (const Topology& topology : kTopologies) {
    for (const int target : kTargetSizes) {
      const int p = nearest_parameter(topology, target);
      const ParentArray lambda = topology.make(p);
      const std::string label = std::string(topology.name) + " " + topology.parameter + std::to_string(p);
      const Eigen::MatrixXd A = treedyn::random_tree_spd<double>(lambda, seed++);  // A = J^T J + I on the pattern
      const BoolMatrix pattern = branch_pattern(lambda);
      const bool shown = target == kTargetSizes[1] || target == kTargetSizes.back();
      rows.push_back(run_row<float>(topology, label, lambda, A, pattern, cfg));
      if (!rows.back().ok()) print_row(rows.back(), quick);
      rows.push_back(run_row<double>(topology, label, lambda, A, pattern, cfg));
      if (shown || !rows.back().ok()) print_row(rows.back(), quick);
    }
  }
  const std::size_t failed =
      static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), [](const Row& r) { return !r.ok(); }));
  std::printf("\n%zu factorizations run, %zu failed a check%s\n\n", rows.size(), failed,
              failed == 0 ? "." : " (the rows marked FAIL above name the check).");

  print_summary(rows, quick);
  return failed == 0;
}

}  // namespace demo
