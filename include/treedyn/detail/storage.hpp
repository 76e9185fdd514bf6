// treedyn::detail storage selection: the one place where a compile-time size N changes the containers.
//
// Model<Scalar, N> and Data<Scalar, N> are written once for every N. With
// N = Dynamic, per-body and per-DoF arrays are std::vector and Eigen objects have run-time sizes; with a
// fixed N (the number of degrees of freedom) they are std::array with a run-time count ≤ N and Eigen
// objects with fixed size or fixed maximum size, so nothing is allocated on the heap. Each body has at
// least one DoF once fixed joints are merged, so N also bounds the number of bodies.
#pragma once

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <Eigen/Core>

#include "treedyn/fwd.hpp"

namespace treedyn::detail {

/// The room for named frames in a Data of fixed size N: 2N (a frame per moving body, N at most, and as many
/// merged fixed links); Dynamic for N = Dynamic.
constexpr int frame_capacity(int N) noexcept { return N == Dynamic ? Dynamic : 2 * N; }

/// A run-time-sized array: std::vector for N = Dynamic, std::array<T, N> plus a count otherwise.
template <class T, int N>
class Array {
 public:
  Array() = default;
  explicit Array(int count, const T& value = T()) { assign(count, value); }

  /// Sets the count; throws std::length_error when a fixed capacity N is exceeded (model building only).
  void assign(int count, const T& value = T()) {
    if constexpr (N == Dynamic) {
      items_.assign(static_cast<std::size_t>(count), value);
    } else {
      if (count < 0 || count > N)
        throw std::length_error("treedyn: " + std::to_string(count) + " entries do not fit a model of fixed size N = " +
                                std::to_string(N));
      count_ = count;
      for (int i = 0; i < count; ++i) items_[static_cast<std::size_t>(i)] = value;
    }
  }
  void push_back(const T& value) {
    if constexpr (N == Dynamic) {
      items_.push_back(value);
    } else {
      if (count_ >= N) throw std::length_error("treedyn: more entries than the fixed size N = " + std::to_string(N));
      items_[static_cast<std::size_t>(count_++)] = value;
    }
  }

  [[nodiscard]] int size() const noexcept {
    if constexpr (N == Dynamic) return static_cast<int>(items_.size());
    else return count_;
  }
  T& operator[](int i) noexcept { return items_[static_cast<std::size_t>(i)]; }
  const T& operator[](int i) const noexcept { return items_[static_cast<std::size_t>(i)]; }
  T* begin() noexcept { return items_.data(); }
  T* end() noexcept { return items_.data() + size(); }
  const T* begin() const noexcept { return items_.data(); }
  const T* end() const noexcept { return items_.data() + size(); }
  const T* data() const noexcept { return items_.data(); }
  /// Bytes held on the heap: the vector's capacity × sizeof(T) for N = Dynamic, none for a fixed N.
  [[nodiscard]] std::size_t heap_bytes() const noexcept {
    if constexpr (N == Dynamic) return items_.capacity() * sizeof(T);
    else return 0;
  }

 private:
  std::conditional_t<N == Dynamic, std::vector<T>, std::array<T, static_cast<std::size_t>(N == Dynamic ? 1 : N)>> items_{};
  int count_ = 0;
};

/// Heap bytes of an Array (its heap_bytes()) or of an Eigen object: rows × cols × sizeof(Scalar) when its
/// maximum size is dynamic, none when it is fixed (the storage is then inside the object).
template <class T, int N>
std::size_t heap_bytes(const Array<T, N>& a) noexcept {
  return a.heap_bytes();
}
template <class Derived>
std::size_t heap_bytes(const Eigen::PlainObjectBase<Derived>& m) noexcept {
  if constexpr (Derived::MaxSizeAtCompileTime == Eigen::Dynamic)
    return static_cast<std::size_t>(m.size()) * sizeof(typename Derived::Scalar);
  else return 0;
}

/// Max-size arguments for Eigen types whose size is at most N (N itself, or Dynamic).
template <int N>
inline constexpr int packed_size = (N == Dynamic ? Dynamic : N * (N + 1) / 2);

}  // namespace treedyn::detail

namespace treedyn {

/// An n-vector of joint quantities (q̇, q̈, τ …): fixed size N, or Dynamic.
template <class Scalar, int N>
using VectorN = Eigen::Matrix<Scalar, N, 1>;
/// An n×n joint-space matrix (H): fixed N×N, or Dynamic.
template <class Scalar, int N>
using MatrixN = Eigen::Matrix<Scalar, N, N>;
/// A configuration vector: its size nq differs from N for spherical / free joints (nq ≤ 7/6 · N + 1),
/// so it is dynamic with a fixed maximum when N is fixed (no heap either way for fixed N).
template <class Scalar, int N>
using ConfigVector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1, Eigen::ColMajor, (N == Dynamic ? Dynamic : 2 * N), 1>;
/// Packed ancestor rows of H (n + D1 ≤ N(N+1)/2 entries): see kernels/ltdl_packed.hpp.
template <class Scalar, int N>
using PackedVector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1, Eigen::ColMajor, detail::packed_size<N>, 1>;

}  // namespace treedyn
