// treedyn::LaneMask<T, W>: W booleans, one per lane, what a comparison of treedyn::Lanes returns
// (docs/lanes.md#what-exists). Internal: include lanes.hpp.
#pragma once

#include <cstddef>

#include "treedyn/detail/assert.hpp"
#include "treedyn/lanes/detail/simd_chunks.hpp"

namespace treedyn {

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

}  // namespace treedyn
