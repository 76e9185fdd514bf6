// The simd layer under treedyn::Lanes (lanes.hpp): the std::experimental::simd types it computes in, the
// alignment of its storage and the width of the chunks each operation loads, computes and stores
// (docs/lanes.md#alignment). Internal: include lanes.hpp.
#pragma once

#include <cstddef>
#include <experimental/simd>

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

/// The width of the chunks an operation computes in (docs/lanes.md#alignment): the largest power of two
/// that divides W and fits in one native register of T (`simd_abi::native<T>`: 4 floats with SSE2, 8 with
/// AVX). `Lanes<float, 8>` is two 4-float chunks without AVX and one 8-float chunk with it.
template <class T, int W>
constexpr int chunk_width() noexcept {
  constexpr int native = static_cast<int>(stdx::simd_size_v<T, stdx::simd_abi::native<T>>);
  int c = 1;
  while (c * 2 <= native && W % (c * 2) == 0) c *= 2;
  return c;
}
#if defined(__GNUC__)
/// C values of T as a GCC vector type aligned as T alone and allowed to alias T's storage: loads and stores
/// through it are single unaligned vector moves (movups).
template <class T, int C>
struct unaligned_vector {
  typedef T type __attribute__((vector_size(sizeof(T) * C), aligned(alignof(T)), may_alias));
};
#endif
}  // namespace lanes_detail

}  // namespace treedyn
