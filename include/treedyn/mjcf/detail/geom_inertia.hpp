// Inertia from primitive geoms (mjcf.hpp, step L5): mass, pose and principal moments of one geom of uniform
// density, and their sum over a body (docs/mjcf.md#inertia-from-geoms). With sizes as MJCF gives them
// (half-lengths, radii), mass m = `mass`, else `density` (default 1000) times the volume V:
//   sphere r          V = 4/3 π r³         I = 2/5 m r² (each axis)
//   ellipsoid a b c   V = 4/3 π a b c      I_x = m (b² + c²) / 5, …
//   box a b c         V = 8 a b c          I_x = m (b² + c²) / 3, …
//   cylinder r h      V = 2 π r² h         I_x = I_y = m (r²/4 + L²/12), I_z = m r²/2, L = 2h
//   capsule r h       the cylinder (mass m_c = m 2πr²h / V) and two hemispheres (m_s = m − m_c), whose
//                     centres of mass lie 3r/8 beyond the cylinder's ends:
//                     V = π r² (2h + 4/3 r),  I_z = m_c r²/2 + 2/5 m_s r²,
//                     I_x = m_c (L²/12 + r²/4) + m_s (2/5 r² + L²/4 + 3/8 r L)
// (standard solid-body results; the capsule's follows from a hemisphere's 83/320 m r² about its own centre
// of mass and the parallel-axis theorem). `fromto` places a capsule or cylinder: centre at the midpoint,
// z along to − from, h = |to − from| / 2. A mesh geom's volume needs its mesh: it is reported, never guessed.
// The body sum: m = Σ m_g, c = Σ m_g p_g / m, Ī_C = Σ R_g diag(I_g) R_gᵀ + m_g (|d|² 1 − d dᵀ), d = p_g − c.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "treedyn/mjcf/detail/orientation.hpp"

namespace treedyn::mjcf::detail {

/// Mass, centre of mass and rotational inertia about it, in some frame (the MJCF body frame).
template <class Scalar>
struct MassProperties {
  Scalar m = Scalar(0);
  Vector3<Scalar> c = Vector3<Scalar>::Zero();
  Matrix3<Scalar> I_c = Matrix3<Scalar>::Zero();
};

/// The volume and the principal moments per unit mass of a primitive, from its sizes.
template <class Scalar>
void primitive(const Element& g, const std::string& type, const std::vector<Scalar>& size, Scalar& volume,
               Vector3<Scalar>& per_mass) {
  const Scalar pi = robots::detail::pi<Scalar>();
  const auto s = [&](std::size_t k) {
    if (size.size() <= k || !(size[k] > Scalar(0)))
      g.fail("type " + type + ": size needs " + std::to_string(k + 1) + " positive numbers");
    return size[k];
  };
  if (type == "sphere") {
    const Scalar r = s(0);
    volume = Scalar(4) / Scalar(3) * pi * r * r * r;
    per_mass.setConstant(Scalar(2) / Scalar(5) * r * r);
  } else if (type == "ellipsoid" || type == "box") {
    const Scalar a = s(0), b = s(1), c = s(2);
    const bool box = type == "box";
    volume = box ? Scalar(8) * a * b * c : Scalar(4) / Scalar(3) * pi * a * b * c;
    const Scalar k = box ? Scalar(1) / Scalar(3) : Scalar(1) / Scalar(5);
    per_mass = Vector3<Scalar>(k * (b * b + c * c), k * (a * a + c * c), k * (a * a + b * b));
  } else {  // cylinder, capsule
    const Scalar r = s(0), h = s(1), L = Scalar(2) * h;
    const Scalar v_cyl = pi * r * r * L;
    const Scalar v_sph = type == "capsule" ? Scalar(4) / Scalar(3) * pi * r * r * r : Scalar(0);
    volume = v_cyl + v_sph;
    const Scalar f_cyl = v_cyl / volume, f_sph = v_sph / volume;
    const Scalar ix = f_cyl * (L * L / Scalar(12) + r * r / Scalar(4)) +
                      f_sph * (Scalar(2) / Scalar(5) * r * r + L * L / Scalar(4) + Scalar(3) / Scalar(8) * r * L);
    per_mass = Vector3<Scalar>(ix, ix, f_cyl * r * r / Scalar(2) + f_sph * Scalar(2) / Scalar(5) * r * r);
  }
}

/// One geom's mass properties in its body's frame; nullopt for a mesh (the caller reports it) and for the
/// massless types (plane, hfield).
template <class Scalar>
std::optional<MassProperties<Scalar>> geom_mass(const Element& g, const Compiler& c) {
  const std::string type =
      g.keyword_or("type", {"plane", "hfield", "sphere", "capsule", "ellipsoid", "cylinder", "box", "mesh"}, "sphere");
  if (type == "plane" || type == "hfield" || type == "mesh") return std::nullopt;
  std::vector<Scalar> size = g.numbers<Scalar>("size", 0, 3);
  Pose<Scalar> P = pose<Scalar>(g, c);
  if (g.has("fromto")) {
    if (type != "capsule" && type != "cylinder") g.fail("fromto on a " + type + " geom is not read yet (capsule, cylinder only)");
    const std::vector<Scalar> ft = g.numbers<Scalar>("fromto", 6, 6);
    const Vector3<Scalar> a = vec3(ft), b = vec3(ft, 3);
    const Vector3<Scalar> d = b - a;
    P = Pose<Scalar>{zaxis_rotation<Scalar>(g, {d(0), d(1), d(2)}), (a + b) / Scalar(2)};
    using std::sqrt;
    if (size.empty()) g.fail("fromto: size needs the radius");
    size.resize(2);
    size[1] = sqrt(Scalar(d.squaredNorm())) / Scalar(2);
  }
  Scalar volume(0);
  Vector3<Scalar> per_mass = Vector3<Scalar>::Zero();
  primitive<Scalar>(g, type, size, volume, per_mass);
  const Scalar density = g.number_or("density", Scalar(1000));
  if (density < Scalar(0)) g.fail("negative density");
  const Scalar m = g.has("mass") ? g.number_or("mass", Scalar(0)) : Scalar(density * volume);
  if (m < Scalar(0)) g.fail("negative mass");
  return MassProperties<Scalar>{m, P.p, Matrix3<Scalar>(P.R * (m * per_mass).asDiagonal() * P.R.transpose())};
}

/// The sum of several mass properties in one frame.
template <class Scalar>
MassProperties<Scalar> combine(const std::vector<MassProperties<Scalar>>& parts) {
  MassProperties<Scalar> out;
  for (const MassProperties<Scalar>& g : parts) {
    out.m += g.m;
    out.c += g.m * g.c;
  }
  if (!(out.m > Scalar(0))) return MassProperties<Scalar>{};
  out.c /= out.m;
  for (const MassProperties<Scalar>& g : parts) {
    const Vector3<Scalar> d = g.c - out.c;
    out.I_c += g.I_c + g.m * (d.squaredNorm() * Matrix3<Scalar>::Identity() - d * d.transpose());
  }
  return out;
}

}  // namespace treedyn::mjcf::detail
