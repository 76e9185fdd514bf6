// ForceRows: external forces read in place from rows of a strided array (e.g. an (nbodies, 6) NumPy array),
// one of the f_ext types the algorithms take (docs/dynamics.md). Any container with size() and operator[]
// returning a Force works as f_ext; this one is a view (no copy) and is the type the compiled component
// (treedyn/compiled.hpp) is instantiated for besides std::vector<Force<S>>.
#pragma once

#include <Eigen/Core>

#include "treedyn/spatial/types.hpp"

namespace treedyn {

/// External forces f_ext[i] = [n; f] (angular first) on body i in body-i coordinates, read from
/// data[i * row_stride + k * col_stride], k = 0..5; a null `data` means no forces (every row zero).
template <class S>
struct ForceRows {
  const S* data = nullptr;  ///< null: no external forces
  Eigen::Index row_stride = 0, col_stride = 0;
  int rows = 0;

  [[nodiscard]] int size() const noexcept { return rows; }
  Force<S> operator[](int i) const noexcept {
    Force<S> f = Force<S>::Zero();
    if (data != nullptr)
      for (int k = 0; k < 6; ++k) f(k) = data[i * row_stride + k * col_stride];
    return f;
  }
};

}  // namespace treedyn
