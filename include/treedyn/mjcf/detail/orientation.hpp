// MJCF frames (mjcf.hpp, step L3): a pose (R, p) of a child frame in its parent (x_parent = R x_child + p)
// from `pos` and one of MuJoCo's orientation forms, and the treedyn Transform it is. The forms, from the
// MJCF reference (docs/mjcf.md#frames):
//   quat      (w, x, y, z), normalised
//   axisangle (x, y, z, a): R(axis / |axis|, a), a in the compiler's angle unit
//   euler     (a1, a2, a3) about the axes of `<compiler eulerseq>` (default "xyz"): a lower-case axis turns
//             with the frame (R ← R · R_k), an upper-case one is fixed (R ← R_k · R)
//   xyaxes    (x, y): x normalised, y made orthogonal to x and normalised, z = x × y; R = [x y z]
//   zaxis     z: the smallest rotation taking e_z to z / |z| (about e_z × z; e_x when z = −e_z)
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "treedyn/mjcf/detail/xml_values.hpp"
#include "treedyn/model/joint.hpp"
#include "treedyn/robots/common.hpp"
#include "treedyn/spatial/transform.hpp"

namespace treedyn::mjcf::detail {

/// `<compiler>` settings the frames need.
struct Compiler {
  bool degrees = true;           ///< angle="degree" (MuJoCo's default) or "radian"
  std::string eulerseq = "xyz";
  std::string inertiafromgeom = "auto";  ///< auto, true, false
  bool autolimits = false;       ///< MuJoCo 2.2.2's default (measured: docs/mjcf.md#limits)
  bool balanceinertia = false;   ///< average principal moments that violate A + B ≥ C instead of refusing them
  std::string directory;         ///< where `<include file>` paths start
};

/// A pose of a frame F in a frame G: x_G = R x_F + p.
template <class Scalar>
struct Pose {
  Matrix3<Scalar> R = Matrix3<Scalar>::Identity();
  Vector3<Scalar> p = Vector3<Scalar>::Zero();

  /// this ∘ other: the pose in G of a frame whose pose in F is `other`.
  [[nodiscard]] Pose operator*(const Pose& other) const { return Pose{R * other.R, R * other.p + p}; }
  /// ^F X_G, the treedyn transform of the same placement.
  [[nodiscard]] Transform<Scalar> transform() const { return Transform<Scalar>{R.transpose(), p}; }
  static Pose translation(const Vector3<Scalar>& t) { return Pose{Matrix3<Scalar>::Identity(), t}; }
  static Pose rotation(const Matrix3<Scalar>& r) { return Pose{r, Vector3<Scalar>::Zero()}; }
};

template <class Scalar>
Vector3<Scalar> vec3(const std::vector<Scalar>& x, std::size_t first = 0) {
  return Vector3<Scalar>{x[first], x[first + 1], x[first + 2]};
}

/// A unit vector along x; fails naming the attribute when x is zero.
template <class Scalar>
Vector3<Scalar> unit(const Element& e, const Vector3<Scalar>& x, const char* attribute) {
  using std::sqrt;
  const Scalar n = sqrt(Scalar(x.squaredNorm()));
  if (!(n > Scalar(0))) e.fail(std::string("attribute ") + attribute + ": zero vector");
  return x / n;
}

/// An angle of the file in radians (π to Scalar's precision).
template <class Scalar>
Scalar angle(const Compiler& c, const Scalar& value) {
  return c.degrees ? Scalar(value * (robots::detail::pi<Scalar>() / Scalar(180))) : value;
}

template <class Scalar>
Matrix3<Scalar> euler_rotation(const Element& e, const Compiler& c, const std::vector<Scalar>& a) {
  if (c.eulerseq.size() != 3) e.fail("<compiler eulerseq=\"" + c.eulerseq + "\">: three axes expected");
  Matrix3<Scalar> R = Matrix3<Scalar>::Identity();
  for (std::size_t k = 0; k < 3; ++k) {
    const char axis = c.eulerseq[k];
    const char lower = static_cast<char>(axis >= 'A' && axis <= 'Z' ? axis - 'A' + 'a' : axis);
    if (lower != 'x' && lower != 'y' && lower != 'z')
      e.fail("<compiler eulerseq=\"" + c.eulerseq + "\">: axes are x, y, z (or X, Y, Z)");
    const Vector3<Scalar> u = Vector3<Scalar>::Unit(lower - 'x');
    const Matrix3<Scalar> Rk = treedyn::detail::axis_rotation(u, angle(c, a[k]));
    R = axis == lower ? Matrix3<Scalar>(R * Rk) : Matrix3<Scalar>(Rk * R);
  }
  return R;
}

template <class Scalar>
Matrix3<Scalar> xyaxes_rotation(const Element& e, const std::vector<Scalar>& a) {
  const Vector3<Scalar> x = unit<Scalar>(e, vec3(a), "xyaxes");
  Vector3<Scalar> y = vec3(a, 3);
  y = unit<Scalar>(e, Vector3<Scalar>(y - x * x.dot(y)), "xyaxes");
  Matrix3<Scalar> R;
  R.col(0) = x;
  R.col(1) = y;
  R.col(2) = x.cross(y);
  return R;
}

template <class Scalar>
Matrix3<Scalar> zaxis_rotation(const Element& e, const std::vector<Scalar>& a) {
  using std::atan2;
  using std::sqrt;
  const Vector3<Scalar> z = unit<Scalar>(e, vec3(a), "zaxis");
  Vector3<Scalar> axis = Vector3<Scalar>::UnitZ().cross(z);
  const Scalar s = sqrt(Scalar(axis.squaredNorm()));
  if (!(s > Scalar(0))) {
    if (z(2) > Scalar(0)) return Matrix3<Scalar>::Identity();
    axis = Vector3<Scalar>::UnitX();
  } else {
    axis /= s;
  }
  return treedyn::detail::axis_rotation(axis, Scalar(atan2(s, z(2))));
}

/// The rotation of the element's orientation attribute (identity when it has none): its own, else its
/// default class's; more than one form in one place fails.
template <class Scalar>
Matrix3<Scalar> rotation(const Element& element, const Compiler& c) {
  const char* const names[] = {"quat", "axisangle", "euler", "xyaxes", "zaxis"};
  int own = 0, all = 0;
  for (const char* f : names) {
    own += element.xml->Attribute(f) ? 1 : 0;
    all += element.has(f) ? 1 : 0;
  }
  const Element e = own > 0 ? Element{element.xml, nullptr, element.files} : element;
  if ((own > 0 ? own : all) > 1) e.fail("more than one of quat, axisangle, euler, xyaxes, zaxis");
  if (e.has("quat")) {
    const std::vector<Scalar> q = e.numbers<Scalar>("quat", 4, 4);
    const Eigen::Matrix<Scalar, 4, 1> xyzw{q[1], q[2], q[3], q[0]};
    if (!(xyzw.squaredNorm() > Scalar(0))) e.fail("attribute quat: zero quaternion");
    return treedyn::detail::quaternion_rotation(xyzw);
  }
  if (e.has("axisangle")) {
    const std::vector<Scalar> a = e.numbers<Scalar>("axisangle", 4, 4);
    return treedyn::detail::axis_rotation(unit<Scalar>(e, vec3(a), "axisangle"), angle(c, a[3]));
  }
  if (e.has("euler")) return euler_rotation<Scalar>(e, c, e.numbers<Scalar>("euler", 3, 3));
  if (e.has("xyaxes")) return xyaxes_rotation<Scalar>(e, e.numbers<Scalar>("xyaxes", 6, 6));
  if (e.has("zaxis")) return zaxis_rotation<Scalar>(e, e.numbers<Scalar>("zaxis", 3, 3));
  return Matrix3<Scalar>::Identity();
}

/// The element's pose: `pos` (default 0) and its orientation.
template <class Scalar>
Pose<Scalar> pose(const Element& e, const Compiler& c) {
  return Pose<Scalar>{rotation<Scalar>(e, c), vec3(e.numbers_or<Scalar>("pos", 3, "0 0 0"))};
}

}  // namespace treedyn::mjcf::detail
