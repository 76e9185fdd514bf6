// treedyn::Lanes<T, W>: W states of the scalar T in one value, so that a kernel instantiated on it
// evaluates W states at once in SIMD lanes (docs/lanes.md#what-exists).
//
// Optional: this header is not part of the umbrella include (treedyn.hpp); include it yourself. It needs
// `<experimental/simd>` (libstdc++ 11 or later, C++17) and nothing else.
//
// Choice of SIMD library (docs/lanes.md#which-simd-library): std::experimental::simd
// rather than xsimd (Debian libxsimd-dev 8.1). Measured on this machine
// (-O2 -march=x86-64-v3, loaded, indicative): sin + cos of 8 floats 13–16 ns (xsimd 15–18 ns, scalar
// std::sin + std::cos 47–51 ns); eight independent mul-add chains over 8 floats 4.0–4.3 ns (xsimd 4.7–4.8).
// Both vectorise sin/cos (so libsleef is not needed); std::experimental::simd is as fast or faster, ships with
// the compiler (no extra package), works at any -march (xsimd wants an architecture chosen at compile time)
// and is the road to C++26 std::simd.
// Storage: a plain array aligned to at most 16 bytes, computed on in chunks of one native register, so
// Lanes may live in any heap allocation (docs/lanes.md#alignment).
//
// Semantics. Every operation is lane by lane; no lane ever reads another. Comparisons return a LaneMask,
// which has no conversion to bool: a data-dependent `if` in a kernel does not compile on Lanes and must be
// written lane-wise (select, detail::select_branch). Lanes is declared *symbolic* to the scalar policy of
// detail/scalar.hpp (is_numeric is false): the library's branches on values then run both sides and select
// per lane (if_else below), and the value checks (finite inputs, quaternion norms, pivots) pass; with their
// lane-wise forms (detail::is_lanewise below) a bad state gives NaN in its own lane only, and no status yet
// (docs/lanes.md#how-the-kernels-see-lanes).
// sin and cos are std::experimental::simd's vectorised polynomials (libstdc++ simd_math.h): on the
// test's grid (tests/lanes) within 2 ulps of std::sin/std::cos for |x| ≤ 1e4 in float and double. noexcept;
// nothing allocates.
#pragma once

#if !__has_include(<experimental/simd>)
#error "treedyn/lanes/lanes.hpp needs <experimental/simd> (libstdc++ 11 or later)"
#endif

#include <cmath>
#include <cstddef>
#include <cstring>
#include <experimental/simd>
#include <limits>
#include <type_traits>

#include <Eigen/Core>

#include "treedyn/detail/assert.hpp"
#include "treedyn/detail/scalar.hpp"
#include "treedyn/lanes/detail/simd_chunks.hpp"
#include "treedyn/lanes/lane_mask.hpp"

// Every operation of Lanes is forced inline: each loads its operands from the storage and stores its result,
// and only inlined do the loads and stores vanish into registers (GCC -O3 left them as calls, measured).
#if defined(__GNUC__)
#define TREEDYN_LANES_INLINE [[gnu::always_inline]] inline
#else
#define TREEDYN_LANES_INLINE inline
#endif

namespace treedyn {

/// The number of T in one native register of the target (`simd_abi::native<T>`): 4 floats or 2 doubles with
/// SSE2 (the default x86-64 flags), 8 and 4 with AVX. The width to choose for Lanes (docs/lanes.md#speed):
/// a W of several registers is correct but, measured with the default flags, slower per state.
template <class T>
constexpr int native_lane_width = static_cast<int>(lanes_detail::stdx::simd_size_v<T, lanes_detail::stdx::simd_abi::native<T>>);

/// W values of T, one per lane (W states of one model). Arithmetic, comparisons and the math functions
/// below act lane by lane. Constructible from any arithmetic value (broadcast to every lane).
///
/// Storage (docs/lanes.md#alignment): a plain array of W values of T, aligned to at most 16 bytes (the
/// default new alignment), not a simd member: `fixed_size_simd<T, W>` asks for the register's
/// alignment (32 bytes for 8 floats), and Eigen's dynamic matrices put their coefficients on the heap
/// aligned only to `EIGEN_DEFAULT_ALIGN_BYTES` (16 without AVX flags), so a simd member there would be
/// stored to a misaligned address (undefined behaviour, which UBSan reported).
///
/// Computation: every operation works on `chunk_type`, a simd value of `chunk_width` lanes that is one
/// native register (or less), chunk by chunk, each chunk loaded and stored with one unaligned move
/// (see `vector_moves`). Never on a `fixed_size_simd` of several registers: without AVX, 8 floats are such a
/// value, and libstdc++ leaves its loads, stores and arithmetic as out-of-line calls passing the value
/// through memory (perf: 33 % of RNEA on `Lanes<float, 8>` in `_SimdImplFixedSize::_S_load`/`_S_store`,
/// 3× slower than scalar float). The operations and copies are forced inline, so inside an expression the
/// chunks stay in registers.
template <class T, int W>
class Lanes {
  static_assert(std::is_floating_point<T>::value, "treedyn::Lanes: T must be float, double or long double");
  static_assert(W >= 1, "treedyn::Lanes: W must be at least 1");

 public:
  using value_type = T;
  /// W values as one `std::experimental::simd<T, deduce_t<T, W>>` (native(); not what operations use).
  using native_type = lanes_detail::compute<T, W>;
  using mask_type = LaneMask<T, W>;
  static constexpr int width = W;
  /// Lanes per chunk: the operations compute on W / chunk_width simd values of this many lanes.
  static constexpr int chunk_width = lanes_detail::chunk_width<T, W>();
  static constexpr int chunks = W / chunk_width;
  /// Chunks move as GCC vector types (one unaligned vector load or store). A `memcpy` of a 16-byte chunk
  /// into the array was lowered by GCC 12 -O2 (SSE2) as two 8-byte integer stores, which the next 16-byte
  /// load of that chunk waits on (store forwarding fails; perf annotate of RNEA on `Lanes<double, 4>`).
  static constexpr bool vector_moves = chunk_width > 1 && (std::is_same<T, float>::value || std::is_same<T, double>::value);
  /// One chunk: at most one native register of T.
  using chunk_type = lanes_detail::stdx::simd<T, lanes_detail::stdx::simd_abi::deduce_t<T, chunk_width>>;
  /// The alignment of the storage (≤ the default new alignment; see the class comment).
  static constexpr std::size_t alignment = lanes_detail::storage_alignment<T, W>();

  Lanes() noexcept = default;  ///< uninitialised, as a built-in scalar
  /// The value x in every lane.
  template <class U, std::enable_if_t<std::is_arithmetic<U>::value, int> = 0>
  TREEDYN_LANES_INLINE Lanes(U x) noexcept {  // NOLINT(google-explicit-constructor): a scalar converts, as float does
    const chunk_type v(static_cast<T>(x));
    for (int c = 0; c < chunks; ++c) put(c, v);
  }
  explicit Lanes(const native_type& v) noexcept { v.copy_to(v_, lanes_detail::stdx::element_aligned); }
  /// Copies move the values chunk by chunk, as the operations load them: a copy in other pieces (the
  /// default copy of the 16-byte-aligned array moves 16-byte halves of an 8-float AVX chunk) makes the
  /// next operation's load wait for store forwarding to fail (measured: RNEA on `Lanes<float, 8>` 6× slower).
  TREEDYN_LANES_INLINE Lanes(const Lanes& o) noexcept {
    for (int c = 0; c < chunks; ++c) put(c, o.get(c));
  }
  TREEDYN_LANES_INLINE Lanes& operator=(const Lanes& o) noexcept {
    for (int c = 0; c < chunks; ++c) put(c, o.get(c));
    return *this;
  }

  [[nodiscard]] T lane(int i) const noexcept { return v_[i]; }
  void set_lane(int i, T x) noexcept { v_[i] = x; }
  /// The W values as a `native_type` (a copy).
  [[nodiscard]] native_type native() const noexcept { return native_type(v_, lanes_detail::stdx::element_aligned); }
  /// Chunk c (lanes c·chunk_width …), loaded with one unaligned move.
  [[nodiscard]] TREEDYN_LANES_INLINE chunk_type get(int c) const noexcept {
    check_layout();
#if defined(__GNUC__)
    if constexpr (vector_moves) {
      using V = typename lanes_detail::unaligned_vector<T, chunk_width>::type;
      return __builtin_bit_cast(chunk_type, *reinterpret_cast<const V*>(v_ + c * chunk_width));
    }
#endif
    chunk_type r;
    std::memcpy(static_cast<void*>(&r), v_ + c * chunk_width, sizeof(r));
    return r;
  }
  /// Stores x as chunk c.
  TREEDYN_LANES_INLINE void put(int c, const chunk_type& x) noexcept {
    check_layout();
#if defined(__GNUC__)
    if constexpr (vector_moves) {
      using V = typename lanes_detail::unaligned_vector<T, chunk_width>::type;
      *reinterpret_cast<V*>(v_ + c * chunk_width) = __builtin_bit_cast(V, x);
      return;
    }
#endif
    std::memcpy(v_ + c * chunk_width, static_cast<const void*>(&x), sizeof(x));
  }

  TREEDYN_LANES_INLINE Lanes operator-() const noexcept {
    Lanes r;
    for (int c = 0; c < chunks; ++c) r.put(c, -get(c));
    return r;
  }
  TREEDYN_LANES_INLINE Lanes operator+() const noexcept { return *this; }
  TREEDYN_LANES_INLINE Lanes& operator+=(const Lanes& b) noexcept {
    for (int c = 0; c < chunks; ++c) put(c, get(c) + b.get(c));
    return *this;
  }
  TREEDYN_LANES_INLINE Lanes& operator-=(const Lanes& b) noexcept {
    for (int c = 0; c < chunks; ++c) put(c, get(c) - b.get(c));
    return *this;
  }
  TREEDYN_LANES_INLINE Lanes& operator*=(const Lanes& b) noexcept {
    for (int c = 0; c < chunks; ++c) put(c, get(c) * b.get(c));
    return *this;
  }
  TREEDYN_LANES_INLINE Lanes& operator/=(const Lanes& b) noexcept {
    for (int c = 0; c < chunks; ++c) put(c, get(c) / b.get(c));
    return *this;
  }

  // Hidden friends: found by argument-dependent lookup only, and a scalar operand converts (broadcast).
  TREEDYN_LANES_INLINE friend Lanes operator+(const Lanes& a, const Lanes& b) noexcept {
    Lanes r;
    for (int c = 0; c < chunks; ++c) r.put(c, a.get(c) + b.get(c));
    return r;
  }
  TREEDYN_LANES_INLINE friend Lanes operator-(const Lanes& a, const Lanes& b) noexcept {
    Lanes r;
    for (int c = 0; c < chunks; ++c) r.put(c, a.get(c) - b.get(c));
    return r;
  }
  TREEDYN_LANES_INLINE friend Lanes operator*(const Lanes& a, const Lanes& b) noexcept {
    Lanes r;
    for (int c = 0; c < chunks; ++c) r.put(c, a.get(c) * b.get(c));
    return r;
  }
  TREEDYN_LANES_INLINE friend Lanes operator/(const Lanes& a, const Lanes& b) noexcept {
    Lanes r;
    for (int c = 0; c < chunks; ++c) r.put(c, a.get(c) / b.get(c));
    return r;
  }
  // Comparisons: chunk by chunk into the W-lane mask (masks are rare in the kernels: value branches).
  friend mask_type operator==(const Lanes& a, const Lanes& b) noexcept {
    return compare(a, b, [](const chunk_type& x, const chunk_type& y) { return x == y; });
  }
  friend mask_type operator!=(const Lanes& a, const Lanes& b) noexcept {
    return compare(a, b, [](const chunk_type& x, const chunk_type& y) { return x != y; });
  }
  friend mask_type operator<(const Lanes& a, const Lanes& b) noexcept {
    return compare(a, b, [](const chunk_type& x, const chunk_type& y) { return x < y; });
  }
  friend mask_type operator<=(const Lanes& a, const Lanes& b) noexcept {
    return compare(a, b, [](const chunk_type& x, const chunk_type& y) { return x <= y; });
  }
  friend mask_type operator>(const Lanes& a, const Lanes& b) noexcept {
    return compare(a, b, [](const chunk_type& x, const chunk_type& y) { return x > y; });
  }
  friend mask_type operator>=(const Lanes& a, const Lanes& b) noexcept {
    return compare(a, b, [](const chunk_type& x, const chunk_type& y) { return x >= y; });
  }

  TREEDYN_LANES_INLINE friend Lanes sqrt(const Lanes& a) noexcept {
    return zip(a, a, [](const chunk_type& x, const chunk_type&) { return lanes_detail::stdx::sqrt(x); });
  }
  TREEDYN_LANES_INLINE friend Lanes abs(const Lanes& a) noexcept {
    return zip(a, a, [](const chunk_type& x, const chunk_type&) { return lanes_detail::stdx::abs(x); });
  }
  TREEDYN_LANES_INLINE friend Lanes sin(const Lanes& a) noexcept {
    return zip(a, a, [](const chunk_type& x, const chunk_type&) { return lanes_detail::stdx::sin(x); });
  }
  TREEDYN_LANES_INLINE friend Lanes cos(const Lanes& a) noexcept {
    return zip(a, a, [](const chunk_type& x, const chunk_type&) { return lanes_detail::stdx::cos(x); });
  }
  TREEDYN_LANES_INLINE friend Lanes min(const Lanes& a, const Lanes& b) noexcept {
    return zip(a, b, [](const chunk_type& x, const chunk_type& y) { return lanes_detail::stdx::min(x, y); });
  }
  TREEDYN_LANES_INLINE friend Lanes max(const Lanes& a, const Lanes& b) noexcept {
    return zip(a, b, [](const chunk_type& x, const chunk_type& y) { return lanes_detail::stdx::max(x, y); });
  }
  friend mask_type isfinite(const Lanes& a) noexcept {
    return compare(a, a, [](const chunk_type& x, const chunk_type&) { return lanes_detail::stdx::isfinite(x); });
  }
  friend mask_type isnan(const Lanes& a) noexcept {
    return compare(a, a, [](const chunk_type& x, const chunk_type&) { return lanes_detail::stdx::isnan(x); });
  }
  friend mask_type isinf(const Lanes& a) noexcept {
    return compare(a, a, [](const chunk_type& x, const chunk_type&) { return lanes_detail::stdx::isinf(x); });
  }

 private:
  /// f(chunk of a, chunk of b) over all chunks (a unary function: zip(a, a, f) with f ignoring its second chunk).
  template <class F>
  TREEDYN_LANES_INLINE static Lanes zip(const Lanes& a, const Lanes& b, F f) noexcept {
    Lanes r;
    for (int c = 0; c < chunks; ++c) r.put(c, f(a.get(c), b.get(c)));
    return r;
  }
  /// The mask of f(chunk of a, chunk of b) over all chunks.
  template <class F>
  static mask_type compare(const Lanes& a, const Lanes& b, F f) noexcept {
    mask_type m(false);
    for (int c = 0; c < chunks; ++c) {
      const auto cm = f(a.get(c), b.get(c));
      for (int i = 0; i < chunk_width; ++i) m.set_lane(c * chunk_width + i, cm[static_cast<std::size_t>(i)]);
    }
    return m;
  }
  static constexpr void check_layout() noexcept {
    // Eigen's dynamic matrices and std::vector place Lanes on the heap, aligned only to the default new
    // alignment (16 on x86-64; Eigen's own aligned_malloc gives EIGEN_DEFAULT_ALIGN_BYTES, 16 without AVX
    // flags): a Lanes asking for more would be stored misaligned there (undefined behaviour). Here, where
    // the class is complete (the function bodies of every operation come through get and put).
    static_assert(alignof(Lanes) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__ && alignof(Lanes) <= alignof(std::max_align_t),
                  "treedyn::Lanes must not be over-aligned: heap allocators (Eigen's, std::vector's) do not honour it");
    static_assert(sizeof(Lanes) == sizeof(T) * W, "treedyn::Lanes is W values of T, no padding");
    static_assert(sizeof(chunk_type) == sizeof(T) * chunk_width, "treedyn::Lanes: a chunk must be chunk_width values of T");
    static_assert(std::is_trivially_copyable<chunk_type>::value, "treedyn::Lanes: a chunk must be bytewise copyable");
  }

  alignas(alignment) T v_[W];
};

/// a in the lanes where m is true, b in the others.
template <class T, int W>
Lanes<T, W> select(const LaneMask<T, W>& m, const Lanes<T, W>& a, const Lanes<T, W>& b) noexcept {
  using L = Lanes<T, W>;
  L r;
  for (int c = 0; c < L::chunks; ++c) {
    typename L::chunk_type x = b.get(c);
    typename L::chunk_type::mask_type cm(false);
    for (int i = 0; i < L::chunk_width; ++i) cm[static_cast<std::size_t>(i)] = m.lane(c * L::chunk_width + i);
    lanes_detail::stdx::where(cm, x) = a.get(c);
    r.put(c, x);
  }
  return r;
}

/// The customisation point of detail::select for a non-bool condition (detail/scalar.hpp): select.
template <class T, int W>
Lanes<T, W> if_else(const LaneMask<T, W>& m, const Lanes<T, W>& a, const Lanes<T, W>& b) noexcept {
  return select(m, a, b);
}

namespace detail {
/// Lanes take the symbolic route of the scalar policy (detail/scalar.hpp): comparisons give masks,
/// value branches select per lane, value checks pass (docs/lanes.md#how-the-kernels-see-lanes).
template <class T, int W>
struct is_numeric<Lanes<T, W>> : std::false_type {};
/// ... whose values are in lanes: a failed pivot check makes its own lane NaN (detail::nan_unless_positive).
template <class T, int W>
struct is_lanewise<Lanes<T, W>> : std::true_type {};
}  // namespace detail

}  // namespace treedyn

namespace Eigen {

/// Eigen's description of a lane scalar: a real, signed, non-integer type whose precision is T's.
template <class T, int W>
struct NumTraits<treedyn::Lanes<T, W>> : GenericNumTraits<T> {
  using L = treedyn::Lanes<T, W>;
  using Real = L;
  using NonInteger = L;
  using Nested = L;
  using Literal = L;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 0,
    ReadCost = 1,
    AddCost = 1,
    MulCost = 1
  };
  static inline L epsilon() { return L(NumTraits<T>::epsilon()); }
  static inline L dummy_precision() { return L(NumTraits<T>::dummy_precision()); }
  static inline L highest() { return L(NumTraits<T>::highest()); }
  static inline L lowest() { return L(NumTraits<T>::lowest()); }
  static inline L infinity() { return L(NumTraits<T>::infinity()); }
  static inline L quiet_NaN() { return L(NumTraits<T>::quiet_NaN()); }
  static inline int digits10() { return NumTraits<T>::digits10(); }
};

}  // namespace Eigen
