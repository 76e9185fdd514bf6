// treedyn::Lanes<T, W>: W states of the scalar T in one value, so that a kernel instantiated on it
// evaluates W states at once in SIMD lanes (docs/lanes.md#what-exists).
//
// Optional: this header is not part of the umbrella include (treedyn.hpp); include it yourself. It needs
// `<experimental/simd>` (libstdc++ 11 or later, C++17) and nothing else.
//
// Choice of SIMD library (docs/lanes.md#which-simd-library): std::experimental::simd
// (fixed_size_simd<T, W>) rather than xsimd (Debian libxsimd-dev 8.1). Measured on this machine
// (-O2 -march=x86-64-v3, loaded, indicative): sin + cos of 8 floats 13–16 ns (xsimd 15–18 ns, scalar
// std::sin + std::cos 47–51 ns); eight independent mul-add chains over 8 floats 4.0–4.3 ns (xsimd 4.7–4.8).
// Both vectorise sin/cos (so libsleef is not needed); std::experimental::simd is as fast or faster, ships with
// the compiler (no extra package), works at any -march (xsimd wants an architecture chosen at compile time)
// and is the road to C++26 std::simd.
// Storage: a plain array aligned to at most 16 bytes, loaded into a fixed_size_simd in each operation, so
// Lanes may live in any heap allocation (docs/lanes.md#alignment).
//
// Semantics. Every operation is lane by lane; no lane ever reads another. Comparisons return a LaneMask,
// which has no conversion to bool: a data-dependent `if` in a kernel does not compile on Lanes and must be
// written lane-wise (select, detail::select_branch). Lanes is declared *symbolic* to the scalar policy of
// detail/scalar.hpp (is_numeric is false): the library's branches on values then run both sides and select
// per lane (if_else below), and the value checks (finite inputs, quaternion norms, pivots) pass, so a bad
// state gives NaN in its own lane only and no status yet (docs/lanes.md#not-done-yet).
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

// Every operation of Lanes is forced inline: each loads its operands from the storage and stores its result,
// and only inlined do the loads and stores vanish into registers (GCC -O3 left them as calls, measured).
#if defined(__GNUC__)
#define TREEDYN_LANES_INLINE [[gnu::always_inline]] inline
#else
#define TREEDYN_LANES_INLINE inline
#endif

namespace treedyn {

namespace lanes_detail {
namespace stdx = std::experimental;
template <class T, int W>
using simd = stdx::fixed_size_simd<T, W>;
template <class T, int W>
using simd_mask = stdx::fixed_size_simd_mask<T, W>;
/// The simd type operations compute in: the target's native ABI when W values of T fill whole registers
/// (one `__m256` for 8 floats with AVX), else fixed_size. The storage is a plain array either way.
template <class T, int W>
using compute = stdx::simd<T, stdx::simd_abi::deduce_t<T, W>>;
}  // namespace lanes_detail

/// W booleans, one per lane: what a comparison of Lanes returns. No conversion to bool (use all, any, none).
template <class T, int W>
class LaneMask {
 public:
  using native_type = lanes_detail::simd_mask<T, W>;
  // Stored in place as Lanes is (see its storage comment): must not ask more than the heap gives.
  static_assert(alignof(native_type) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__, "treedyn::LaneMask must not be over-aligned");
  LaneMask() noexcept = default;
  explicit LaneMask(bool b) noexcept : m_(b) {}
  explicit LaneMask(const native_type& m) noexcept : m_(m) {}
  [[nodiscard]] bool lane(int i) const noexcept { return m_[static_cast<std::size_t>(i)]; }
  void set_lane(int i, bool b) noexcept { m_[static_cast<std::size_t>(i)] = b; }
  [[nodiscard]] const native_type& native() const noexcept { return m_; }
  /// True when every lane is true. Meant for a uniform mask only (every lane alike), as Eigen's product
  /// code asks of constants; a kernel asking it of a mixed mask has a branch on values not yet written
  /// lane-wise, which debug builds catch (TREEDYN_ASSERT).
  explicit operator bool() const noexcept {
    TREEDYN_ASSERT(lanes_detail::stdx::all_of(m_) || lanes_detail::stdx::none_of(m_), "a branch on a mixed LaneMask");
    return lanes_detail::stdx::all_of(m_);
  }

  friend LaneMask operator&&(const LaneMask& a, const LaneMask& b) noexcept { return LaneMask(a.m_ && b.m_); }
  friend LaneMask operator||(const LaneMask& a, const LaneMask& b) noexcept { return LaneMask(a.m_ || b.m_); }
  friend LaneMask operator!(const LaneMask& a) noexcept { return LaneMask(!a.m_); }
  friend bool all(const LaneMask& a) noexcept { return lanes_detail::stdx::all_of(a.m_); }
  friend bool any(const LaneMask& a) noexcept { return lanes_detail::stdx::any_of(a.m_); }
  friend bool none(const LaneMask& a) noexcept { return lanes_detail::stdx::none_of(a.m_); }

 private:
  native_type m_;
};

namespace lanes_detail {
/// The alignment of Lanes<T, W>'s storage: the natural alignment of W values of T (their size, when it is
/// a power of two) but never more than what every allocator Eigen may use guarantees (see Lanes).
template <class T, int W>
constexpr std::size_t storage_alignment() noexcept {
  constexpr std::size_t bytes = sizeof(T) * static_cast<std::size_t>(W);
  constexpr std::size_t cap = __STDCPP_DEFAULT_NEW_ALIGNMENT__ < alignof(std::max_align_t) ? __STDCPP_DEFAULT_NEW_ALIGNMENT__
                                                                                             : alignof(std::max_align_t);
  std::size_t a = alignof(T);
  while (a * 2 <= cap && bytes % (a * 2) == 0) a *= 2;
  return a;
}
}  // namespace lanes_detail

/// W values of T, one per lane (W states of one model). Arithmetic, comparisons and the math functions
/// below act lane by lane. Constructible from any arithmetic value (broadcast to every lane).
///
/// Storage (docs/lanes.md#alignment): a plain array of W values of T, aligned to at most 16 bytes (the
/// default new alignment), not a `fixed_size_simd<T, W>` member: that type asks for the register's
/// alignment (32 bytes for 8 floats), and Eigen's dynamic matrices put their coefficients on the heap
/// aligned only to `EIGEN_DEFAULT_ALIGN_BYTES` (16 without AVX flags), so a `fixed_size_simd` member there
/// would be stored to a misaligned address (undefined behaviour, which UBSan reported). Every operation
/// loads the array into a simd value (`native_type`, the target's native ABI when W values fill registers)
/// and stores the result back, each a single unaligned move (`memcpy`); the operations and copies are
/// forced inline, so inside an expression the values stay in registers.
template <class T, int W>
class Lanes {
  static_assert(std::is_floating_point<T>::value, "treedyn::Lanes: T must be float, double or long double");
  static_assert(W >= 1, "treedyn::Lanes: W must be at least 1");

 public:
  using value_type = T;
  /// The simd type each operation loads the lanes into (`std::experimental::simd<T, deduce_t<T, W>>`).
  using native_type = lanes_detail::compute<T, W>;
  using mask_type = LaneMask<T, W>;
  static constexpr int width = W;
  /// The alignment of the storage (≤ the default new alignment; see the class comment).
  static constexpr std::size_t alignment = lanes_detail::storage_alignment<T, W>();

  Lanes() noexcept = default;  ///< uninitialised, as a built-in scalar
  /// The value x in every lane.
  template <class U, std::enable_if_t<std::is_arithmetic<U>::value, int> = 0>
  Lanes(U x) noexcept {  // NOLINT(google-explicit-constructor): a scalar converts, as float does
    store(native_type(static_cast<T>(x)));
  }
  TREEDYN_LANES_INLINE explicit Lanes(const native_type& v) noexcept { store(v); }
  /// Copies move the W values as one simd value: a default (memberwise) copy of the 16-byte-aligned array
  /// is done in 16-byte halves, and the next operation's full-width load from the copy then waits for
  /// store forwarding to fail (measured: RNEA on Lanes<float, 8> 6× slower, docs/lanes.md#alignment).
  TREEDYN_LANES_INLINE Lanes(const Lanes& o) noexcept { store(o.native()); }
  TREEDYN_LANES_INLINE Lanes& operator=(const Lanes& o) noexcept {
    store(o.native());
    return *this;
  }

  [[nodiscard]] T lane(int i) const noexcept { return v_[i]; }
  void set_lane(int i, T x) noexcept { v_[i] = x; }
  /// The W values as a `native_type` (a copy, loaded from the storage).
  [[nodiscard]] TREEDYN_LANES_INLINE native_type native() const noexcept {
    check_layout();
    if constexpr (std::is_trivially_copyable<native_type>::value) {
      native_type r;
      std::memcpy(static_cast<void*>(&r), v_, sizeof(v_));
      return r;
    } else {  // fixed_size of several registers (e.g. 8 floats without AVX): not bytewise copyable
      return native_type(v_, lanes_detail::stdx::element_aligned);
    }
  }

  TREEDYN_LANES_INLINE Lanes operator-() const noexcept { return Lanes(-native()); }
  TREEDYN_LANES_INLINE Lanes operator+() const noexcept { return *this; }
  /// The lanes into / from a `fixed_size_simd<T, W>` (the mask's type; select).
  void copy_to_fixed(lanes_detail::simd<T, W>& out) const noexcept { out.copy_from(v_, lanes_detail::stdx::element_aligned); }
  static Lanes from_fixed(const lanes_detail::simd<T, W>& x) noexcept {
    Lanes r;
    x.copy_to(r.v_, lanes_detail::stdx::element_aligned);
    return r;
  }
  TREEDYN_LANES_INLINE Lanes& operator+=(const Lanes& b) noexcept { store(native() + b.native()); return *this; }
  TREEDYN_LANES_INLINE Lanes& operator-=(const Lanes& b) noexcept { store(native() - b.native()); return *this; }
  TREEDYN_LANES_INLINE Lanes& operator*=(const Lanes& b) noexcept { store(native() * b.native()); return *this; }
  TREEDYN_LANES_INLINE Lanes& operator/=(const Lanes& b) noexcept { store(native() / b.native()); return *this; }

  // Hidden friends: found by argument-dependent lookup only, and a scalar operand converts (broadcast).
  TREEDYN_LANES_INLINE friend Lanes operator+(const Lanes& a, const Lanes& b) noexcept { return Lanes(a.native() + b.native()); }
  TREEDYN_LANES_INLINE friend Lanes operator-(const Lanes& a, const Lanes& b) noexcept { return Lanes(a.native() - b.native()); }
  TREEDYN_LANES_INLINE friend Lanes operator*(const Lanes& a, const Lanes& b) noexcept { return Lanes(a.native() * b.native()); }
  TREEDYN_LANES_INLINE friend Lanes operator/(const Lanes& a, const Lanes& b) noexcept { return Lanes(a.native() / b.native()); }
  TREEDYN_LANES_INLINE friend mask_type operator==(const Lanes& a, const Lanes& b) noexcept { return mask_type(lanes_detail::stdx::to_fixed_size(a.native() == b.native())); }
  TREEDYN_LANES_INLINE friend mask_type operator!=(const Lanes& a, const Lanes& b) noexcept { return mask_type(lanes_detail::stdx::to_fixed_size(a.native() != b.native())); }
  TREEDYN_LANES_INLINE friend mask_type operator<(const Lanes& a, const Lanes& b) noexcept { return mask_type(lanes_detail::stdx::to_fixed_size(a.native() < b.native())); }
  TREEDYN_LANES_INLINE friend mask_type operator<=(const Lanes& a, const Lanes& b) noexcept { return mask_type(lanes_detail::stdx::to_fixed_size(a.native() <= b.native())); }
  TREEDYN_LANES_INLINE friend mask_type operator>(const Lanes& a, const Lanes& b) noexcept { return mask_type(lanes_detail::stdx::to_fixed_size(a.native() > b.native())); }
  TREEDYN_LANES_INLINE friend mask_type operator>=(const Lanes& a, const Lanes& b) noexcept { return mask_type(lanes_detail::stdx::to_fixed_size(a.native() >= b.native())); }

  TREEDYN_LANES_INLINE friend Lanes sqrt(const Lanes& a) noexcept { return Lanes(lanes_detail::stdx::sqrt(a.native())); }
  TREEDYN_LANES_INLINE friend Lanes abs(const Lanes& a) noexcept { return Lanes(lanes_detail::stdx::abs(a.native())); }
  TREEDYN_LANES_INLINE friend Lanes sin(const Lanes& a) noexcept { return Lanes(lanes_detail::stdx::sin(a.native())); }
  TREEDYN_LANES_INLINE friend Lanes cos(const Lanes& a) noexcept { return Lanes(lanes_detail::stdx::cos(a.native())); }
  TREEDYN_LANES_INLINE friend Lanes min(const Lanes& a, const Lanes& b) noexcept { return Lanes(lanes_detail::stdx::min(a.native(), b.native())); }
  TREEDYN_LANES_INLINE friend Lanes max(const Lanes& a, const Lanes& b) noexcept { return Lanes(lanes_detail::stdx::max(a.native(), b.native())); }
  TREEDYN_LANES_INLINE friend mask_type isfinite(const Lanes& a) noexcept { return mask_type(lanes_detail::stdx::to_fixed_size(lanes_detail::stdx::isfinite(a.native()))); }
  TREEDYN_LANES_INLINE friend mask_type isnan(const Lanes& a) noexcept { return mask_type(lanes_detail::stdx::to_fixed_size(lanes_detail::stdx::isnan(a.native()))); }
  TREEDYN_LANES_INLINE friend mask_type isinf(const Lanes& a) noexcept { return mask_type(lanes_detail::stdx::to_fixed_size(lanes_detail::stdx::isinf(a.native()))); }

 private:
  static constexpr void check_layout() noexcept {
    // Eigen's dynamic matrices and std::vector place Lanes on the heap, aligned only to the default new
    // alignment (16 on x86-64; Eigen's own aligned_malloc gives EIGEN_DEFAULT_ALIGN_BYTES, 16 without AVX
    // flags): a Lanes asking for more would be stored misaligned there (undefined behaviour). Here, where
    // the class is complete (the function bodies of every operation come through flags()).
    static_assert(alignof(Lanes) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__ && alignof(Lanes) <= alignof(std::max_align_t),
                  "treedyn::Lanes must not be over-aligned: heap allocators (Eigen's, std::vector's) do not honour it");
    static_assert(sizeof(Lanes) == sizeof(T) * W, "treedyn::Lanes is W values of T, no padding");
    static_assert(sizeof(native_type) == sizeof(T) * W, "treedyn::Lanes: the simd type must be W values of T");
  }
  // memcpy rather than copy_to: the same single unaligned move, but cheap in GCC's inlining estimate, so the
  // Eigen functors around the operations inline too (with copy_to they did not: measured).
  TREEDYN_LANES_INLINE void store(const native_type& x) noexcept {
    check_layout();
    if constexpr (std::is_trivially_copyable<native_type>::value)
      std::memcpy(v_, static_cast<const void*>(&x), sizeof(v_));
    else
      x.copy_to(v_, lanes_detail::stdx::element_aligned);
  }

  alignas(alignment) T v_[W];
};

/// a in the lanes where m is true, b in the others.
template <class T, int W>
Lanes<T, W> select(const LaneMask<T, W>& m, const Lanes<T, W>& a, const Lanes<T, W>& b) noexcept {
  lanes_detail::simd<T, W> out, in;  // fixed_size, as the mask
  b.copy_to_fixed(out);
  a.copy_to_fixed(in);
  lanes_detail::stdx::where(m.native(), out) = in;
  return Lanes<T, W>::from_fixed(out);
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
