// treedyn topology generators: regular parent arrays of the trees of Featherstone (2005), and random trees.
//
// Citation: Featherstone, IJRR 24(6) 2005 (docs/references.md): §4.2, Fig. 4 and Table 2 (unbranched chain,
// chain with short side branches, balanced binary tree, spanning tree of a square grid), §5 (every
// body on the base: D0 = D1 = 0), §6 and Fig. 6 (the 30-DoF humanoid: a floating torso and four 6-DoF
// limbs). Notation: docs/notation.md.
//
// All arrays are 0-based with `no_parent` (-1) for the base and satisfy -1 <= lambda[i] < i.
// Every generator throws std::invalid_argument on a bad size (the message names the argument and the
// rule). Costs and allocation: O(n) time; each allocates only the returned array, except
// grid_spanning_tree, which allocates m^2 ints of scratch as well.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "treedyn/detail/assert.hpp"
#include "treedyn/fwd.hpp"
#include "treedyn/topology/parent_array.hpp"

namespace treedyn {

/// SplitMix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014):
/// a 64-bit state advanced by the golden-ratio increment, then a bijective mixer. Defined entirely
/// with unsigned 64-bit arithmetic, so the sequence is the same on every platform and compiler.
class SplitMix64 {
 public:
  constexpr explicit SplitMix64(std::uint64_t seed) noexcept : state_(seed) {}

  constexpr std::uint64_t next() noexcept {
    state_ += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  /// An integer in [0, bound), bound >= 1, by modulo reduction: the bias (< bound / 2^64) is
  /// irrelevant for generating test topologies, and the reduction is exact and portable.
  constexpr int below(int bound) noexcept {
    TREEDYN_ASSERT(bound >= 1, "SplitMix64::below: bound must be >= 1");
    return static_cast<int>(next() % static_cast<std::uint64_t>(bound));
  }

  /// A double in [lo, hi) from the top 53 bits of one draw: exact, portable, the same on every platform.
  /// Deliberately double for every Scalar: a model or matrix drawn for float is the double draw rounded
  /// once (callers write Scalar(rng.uniform(…))), so float and double runs see the same numbers.
  constexpr double uniform(double lo, double hi) noexcept {
    return lo + (hi - lo) * (static_cast<double>(next() >> 11) * 0x1.0p-53);
  }

 private:
  std::uint64_t state_;
};

namespace detail {

inline void require_size(bool ok, const char* function, const char* argument, long long value,
                         const char* rule) {
  if (!ok) {
    throw std::invalid_argument(std::string("topologies::") + function + ": " + argument + " = " +
                                std::to_string(value) + ", but " + rule);
  }
}

}  // namespace detail

namespace topologies {

/// Unbranched chain of n >= 1 bodies: lambda[i] = i - 1 (Featherstone (2005) §2, Table 2 row 1).
/// D1 = (n^2 - n)/2, D2 = (n^3 - n)/6.
inline ParentArray chain(int n) {
  detail::require_size(n >= 1, "chain", "n", n, "a chain needs n >= 1 bodies");
  ParentArray lambda(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) lambda[static_cast<std::size_t>(i)] = i - 1;
  return lambda;
}

/// n >= 1 bodies, each attached directly to the base (the extreme case D0 = D1 = D2 = 0 of Featherstone (2005) §5:
/// a diagonal H). Not a hub-and-spokes tree.
inline ParentArray star(int n) {
  detail::require_size(n >= 1, "star", "n", n, "a star needs n >= 1 bodies");
  return ParentArray(static_cast<std::size_t>(n), no_parent);
}

/// Chain with short side branches (Featherstone (2005), Fig. 4(a), Table 2 row 2): a main chain of m >= 1 bodies,
/// each carrying one single-body side branch; n = 2m. Interleaved numbering: chain body k is node 2k,
/// its side branch is node 2k + 1. D1 = m^2, D2 = (2m^3 + 3m^2 + m)/6.
inline ParentArray short_side_branches(int m) {
  detail::require_size(m >= 1 && m <= std::numeric_limits<int>::max() / 2, "short_side_branches",
                       "m", m, "it needs 1 <= m <= INT_MAX/2 (n = 2m)");
  ParentArray lambda(2 * static_cast<std::size_t>(m));
  for (int k = 0; k < m; ++k) {
    lambda[static_cast<std::size_t>(2 * k)] = (k == 0) ? no_parent : 2 * k - 2;
    lambda[static_cast<std::size_t>(2 * k + 1)] = 2 * k;
  }
  return lambda;
}

/// Balanced binary tree with m >= 1 levels (Featherstone (2005) Fig. 4(b), Table 2 row 3), heap numbering:
/// 1-based lambda(i) = floor(i/2), i.e. 0-based lambda[i] = (i - 1)/2 for i >= 1; n = 2^m - 1.
/// D1 = sum_{i=1}^{m-1} i 2^i, D2 = sum_{i=1}^{m-1} i (i+1) 2^(i-1). Requires m <= 30 (n fits in int).
inline ParentArray binary_tree(int m) {
  detail::require_size(m >= 1 && m <= 30, "binary_tree", "m", m,
                       "it needs 1 <= m <= 30 (n = 2^m - 1 must fit in int)");
  const int n = static_cast<int>((1LL << m) - 1);
  ParentArray lambda(static_cast<std::size_t>(n));
  lambda[0] = no_parent;
  for (int i = 1; i < n; ++i) lambda[static_cast<std::size_t>(i)] = (i - 1) / 2;
  return lambda;
}

/// A shortest-path spanning tree of an m x m grid (Featherstone (2005) Fig. 4(c), Table 2 row 4); n = m^2.
/// Grid node (r, c), 0 <= r, c < m; the base is attached to the corner (0, 0), so node (r, c) has
/// depth r + c + 1. Tree: column 0 is a spine ((r, 0) hangs from (r-1, 0)) and every row hangs from it
/// ((r, c) hangs from (r, c-1) for c >= 1); every edge is a grid edge and every path to the base is a
/// shortest one. Numbering: by anti-diagonal s = r + c (distance from the corner), then by r, so
/// parents precede children. D1 = m^3 - m^2, D2 = (7m^4 - 6m^3 - m^2)/12 (the same for every such tree).
inline ParentArray grid_spanning_tree(int m) {
  detail::require_size(m >= 1 && m <= 46340, "grid_spanning_tree", "m", m,
                       "it needs 1 <= m <= 46340 (n = m^2 must fit in int)");
  const std::size_t side = static_cast<std::size_t>(m);
  std::vector<int> index(side * side, no_parent);  // index[r * m + c] = node number of (r, c)
  ParentArray lambda(side * side);
  int next = 0;
  for (int s = 0; s <= 2 * (m - 1); ++s) {
    const int r_first = (s - (m - 1) > 0) ? s - (m - 1) : 0;
    const int r_last = (s < m - 1) ? s : m - 1;
    for (int r = r_first; r <= r_last; ++r) {
      const int c = s - r;
      const std::size_t cell = static_cast<std::size_t>(r) * side + static_cast<std::size_t>(c);
      index[cell] = next;
      int parent = no_parent;
      if (c > 0) {
        parent = index[cell - 1];  // (r, c-1), on anti-diagonal s-1: already numbered
      } else if (r > 0) {
        parent = index[cell - side];  // (r-1, 0)
      }
      lambda[static_cast<std::size_t>(next)] = parent;
      ++next;
    }
  }
  return lambda;
}

/// The body parent array of Featherstone (2005) §6 / Fig. 6: a torso (node 0, attached to the base) carrying
/// `limbs` serial limbs of `per_limb` bodies each; limb l occupies nodes 1 + l*per_limb ... (l+1)*per_limb.
/// 1 + limbs*per_limb entries. With the defaults (4, 6): 25 bodies, D0 = 24, D1 = 84.
/// Requires limbs >= 0, per_limb >= 0 (zero gives the torso alone).
inline ParentArray humanoid(int limbs = 4, int per_limb = 6) {
  detail::require_size(limbs >= 0, "humanoid", "limbs", limbs, "it must be >= 0");
  detail::require_size(per_limb >= 0, "humanoid", "per_limb", per_limb, "it must be >= 0");
  const long long count = 1 + static_cast<long long>(limbs) * static_cast<long long>(per_limb);
  detail::require_size(count <= std::numeric_limits<int>::max(), "humanoid", "1 + limbs*per_limb",
                       count, "the body count must fit in int");
  ParentArray lambda(static_cast<std::size_t>(count));
  lambda[0] = no_parent;
  int node = 1;
  for (int l = 0; l < limbs; ++l) {
    for (int j = 0; j < per_limb; ++j) {
      lambda[static_cast<std::size_t>(node)] = (j == 0) ? 0 : node - 1;
      ++node;
    }
  }
  return lambda;
}

/// DoF per body of humanoid(limbs, per_limb): torso_dofs for the torso (6: a floating base), then 1
/// per limb joint (revolute). Feed it to expand_parent_array: with the defaults, n = 30 and the
/// expanded array has D1 = 219, D2 = 1039 (Featherstone (2005) §6). Requires 0 <= torso_dofs <= 6.
inline std::vector<int> humanoid_dofs(int limbs = 4, int per_limb = 6, int torso_dofs = 6) {
  detail::require_size(torso_dofs >= 0 && torso_dofs <= 6, "humanoid_dofs", "torso_dofs", torso_dofs,
                       "a joint has between 0 and 6 degrees of freedom");
  std::vector<int> dofs(humanoid(limbs, per_limb).size(), 1);
  dofs[0] = torso_dofs;
  return dofs;
}

/// A random regular parent array of n >= 1 nodes, a pure function of (n, seed): the same on every
/// platform (SplitMix64 and integer arithmetic only). The seed first draws a shape, so a family of
/// seeds mixes chain-like and bushy trees:
///   chain_pct in [0, 90]: the percentage of nodes that continue the previous node (lambda[i] = i-1);
///   base_pct in [0, 7]:   the percentage attached directly to the base (so forests occur);
///   window:               the remaining nodes pick a parent uniformly among the last `window`
///                         nodes, where window is 2..8 (deep, caterpillar-like) or all earlier nodes
///                         (bushy, a random recursive tree).
/// Node 0 is always attached to the base.
inline ParentArray random_tree(int n, std::uint64_t seed) {
  detail::require_size(n >= 1, "random_tree", "n", n, "a tree needs n >= 1 bodies");
  SplitMix64 rng(seed);
  const int chain_pct = rng.below(91);
  const int base_pct = rng.below(8);
  const bool local = rng.below(2) == 0;
  const int window = local ? 2 + rng.below(7) : n;
  ParentArray lambda(static_cast<std::size_t>(n));
  lambda[0] = no_parent;
  for (int i = 1; i < n; ++i) {
    const int r = rng.below(100);
    int parent;
    if (r < chain_pct) {
      parent = i - 1;
    } else if (r < chain_pct + base_pct) {
      parent = no_parent;
    } else {
      const int w = (i < window) ? i : window;
      parent = i - 1 - rng.below(w);
    }
    lambda[static_cast<std::size_t>(i)] = parent;
  }
  return lambda;
}

}  // namespace topologies
}  // namespace treedyn
