// Centre of mass, its Jacobian, the centroidal momentum matrix (CCRBA) and the energies (issue 42), on every
// built-in robot and random trees with every joint type (floating bases included), in float and double,
// each against an independent reference computed in long double on the same model: the mass-weighted sum
// of body centres of mass (whole robot and every subtree), central differences of c(q) along the tangent
// space (integrate), the mass-weighted per-body Jacobians (frame_jacobian), the bodies' momenta about c
// summed, the bodies' inertias transformed to c summed, and ½ q̇ᵀ H q̇ from crba. Also: A_g's linear rows
// equal M·J_c, the failures (zero quaternion, non-finite q̇) give NaN and a status, and a
// cpp_bin_float_50 instantiation agrees with long double.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include <boost/multiprecision/cpp_bin_float.hpp>

#include "support/robot_cases.hpp"
#include "support/tolerance.hpp"
#include "treedyn/algorithms/algorithms.hpp"
#include "treedyn/model/configuration.hpp"

using namespace treedyn;
using namespace treedyn::test;

namespace {

using L = long double;
using VecL = Eigen::Matrix<L, Eigen::Dynamic, 1>;
using MatL = Eigen::Matrix<L, Eigen::Dynamic, Eigen::Dynamic>;

/// Body i's centre of mass in world coordinates (its origin when massless), from data.X_world.
Vector3<L> body_com(const Model<L>& model, const Data<L>& data, int i) {
  const RigidInertia<L>& I = model.inertia(i);
  const Transform<L>& X = data.X_world[i];
  return I.m == 0 ? X.r : Vector3<L>(X.r + X.E.transpose() * (I.h / I.m));
}

bool in_subtree(const Model<L>& model, int body, int root) {
  for (int j = body; j != no_parent; j = model.parent(j))
    if (j == root) return true;
  return false;
}

/// Brute-force references in long double at (q, q̇): every body's com p_i, c, M, subtree coms and masses.
struct Reference {
  std::vector<Vector3<L>> p;
  std::vector<Vector3<L>> com_subtree;
  std::vector<L> mass_subtree;
  Vector3<L> com = Vector3<L>::Zero();
  L mass = 0;
  L scale = 1;  // the largest |p_i| and body size, for the absolute tolerances
};

Reference reference(const Model<L>& model, const VecL& q) {
  Data<L> data(model);
  forward_kinematics(model, data, q);
  Reference r;
  const int nb = model.nbodies();
  for (int i = 0; i < nb; ++i) {
    r.p.push_back(body_com(model, data, i));
    r.scale = std::max(r.scale, r.p.back().norm());
    r.scale = std::max(r.scale, data.X_world[i].r.norm());
  }
  for (int j = 0; j < nb; ++j) {
    L m = 0;
    Vector3<L> mp = Vector3<L>::Zero();
    for (int i = 0; i < nb; ++i)
      if (in_subtree(model, i, j)) {
        m += model.inertia(i).m;
        mp += model.inertia(i).m * r.p[static_cast<std::size_t>(i)];
      }
    r.mass_subtree.push_back(m);
    r.com_subtree.push_back(m == 0 ? data.X_world[j].r : Vector3<L>(mp / m));
  }
  for (int i = 0; i < nb; ++i) {
    r.mass += model.inertia(i).m;
    r.com += model.inertia(i).m * r.p[static_cast<std::size_t>(i)];
  }
  r.com /= r.mass;
  return r;
}

L com_at(const Model<L>& model, Data<L>& data, const VecL& q, int row) {
  REQUIRE(center_of_mass(model, data, q).ok());
  return data.com(row);
}

/// Central differences of c(q) along the tangent space: column k = (c(q ⊕ h e_k) − c(q ⊕ −h e_k)) / 2h.
MatL com_jacobian_fd(const Model<L>& model, const VecL& q) {
  Data<L> data(model);
  const int n = model.nv();
  MatL J(3, n);
  const L h = 1e-6L;
  VecL qp(model.nq()), qm(model.nq());
  for (int k = 0; k < n; ++k) {
    const VecL e = VecL::Unit(n, k);
    integrate(model, q, e, h, qp);
    integrate(model, q, e, -h, qm);
    for (int r = 0; r < 3; ++r) J(r, k) = (com_at(model, data, qp, r) - com_at(model, data, qm, r)) / (2 * h);
  }
  return J;
}

/// Σ m_i J_i(p_i) / M: the linear rows of every body's world-aligned Jacobian at its com, mass-weighted.
MatL com_jacobian_from_bodies(const Model<L>& model, const VecL& q) {
  Data<L> data(model);
  forward_kinematics(model, data, q);
  MatL J = MatL::Zero(3, model.nv());
  L mass = 0;
  for (int i = 0; i < model.nbodies(); ++i) {
    const RigidInertia<L>& I = model.inertia(i);
    if (I.m == 0) continue;
    frame_jacobian(model, data, i, xlt(Vector3<L>(I.h / I.m)), ReferenceFrame::world_aligned);
    J += I.m * data.J.bottomRows(3);
    mass += I.m;
  }
  return J / mass;
}

/// Σ_i [R_i Ī_i R_iᵀ ω_i + (p_i − c) × m_i ṗ_i; m_i ṗ_i]: the bodies' momenta about c, each from the body's
/// world-aligned Jacobian at its com (ω_i, ṗ_i) and its inertia about its com (Ī_i).
Eigen::Matrix<L, 6, 1> momentum_about(const Model<L>& model, const VecL& q, const VecL& qd, const Vector3<L>& c) {
  Data<L> data(model);
  forward_kinematics(model, data, q);
  Eigen::Matrix<L, 6, 1> hg = Eigen::Matrix<L, 6, 1>::Zero();
  for (int i = 0; i < model.nbodies(); ++i) {
    const RigidInertia<L>& I = model.inertia(i);  // a massless body may still have a rotational inertia (puma560)
    const Vector3<L> ci = I.m == 0 ? Vector3<L>::Zero() : Vector3<L>(I.h / I.m);
    frame_jacobian(model, data, i, xlt(ci), ReferenceFrame::world_aligned);
    const Eigen::Matrix<L, 6, 1> v = data.J * qd;
    const Matrix3<L> R = data.X_world[i].E.transpose();
    const Matrix3<L> Ibar = I.I.matrix() - I.m * (ci.squaredNorm() * Matrix3<L>::Identity() - ci * ci.transpose());
    const Vector3<L> l = I.m * v.tail<3>();
    hg.head<3>() += R * Ibar * R.transpose() * v.head<3>() + (body_com(model, data, i) - c).cross(l);
    hg.tail<3>() += l;
  }
  return hg;
}

/// Σ_i (R_i Ī_i R_iᵀ + m_i (|d_i|² 1 − d_i d_iᵀ)), d_i = p_i − c: the rotational inertia about c.
Matrix3<L> inertia_about(const Model<L>& model, const VecL& q, const Vector3<L>& c) {
  Data<L> data(model);
  forward_kinematics(model, data, q);
  Matrix3<L> out = Matrix3<L>::Zero();
  for (int i = 0; i < model.nbodies(); ++i) {
    const RigidInertia<L>& I = model.inertia(i);
    const Vector3<L> ci = I.m == 0 ? Vector3<L>::Zero() : Vector3<L>(I.h / I.m);
    const Matrix3<L> R = data.X_world[i].E.transpose();
    const Matrix3<L> Ibar = I.I.matrix() - I.m * (ci.squaredNorm() * Matrix3<L>::Identity() - ci * ci.transpose());
    const Vector3<L> d = body_com(model, data, i) - c;
    out += R * Ibar * R.transpose() + I.m * (d.squaredNorm() * Matrix3<L>::Identity() - d * d.transpose());
  }
  return out;
}

template <class T, class A, class B>
double max_abs_diff(const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<B>& b) {
  return static_cast<double>((a.template cast<L>() - b.template cast<L>()).cwiseAbs().maxCoeff());
}

}  // namespace

TEMPLATE_TEST_CASE("center_of_mass: whole robot and every subtree against the mass-weighted sum of body coms",
                   "[centroidal][com]", float, double) {
  using T = TestType;
  for_each_robot_state<T>(20, 4200u, [](const RobotCase<T>& c, const State<T>& s) {
    const Model<L> ml = c.model.template cast<L>();
    const Reference ref = reference(ml, s.q.template cast<L>());
    Data<T> data(c.model);
    REQUIRE(center_of_mass(c.model, data, s.q).ok());
    const double bound = tolerance<T>(16, c.model.nbodies() + 1, ref.scale);
    CHECK(std::abs(static_cast<double>(L(data.mass) - ref.mass)) <= tolerance<T>(4, c.model.nbodies(), ref.mass));
    CHECK(max_abs_diff<T>(data.com, ref.com) <= bound);
    for (int i = 0; i < c.model.nbodies(); ++i) {
      INFO("subtree of body " << i);
      const auto k = static_cast<std::size_t>(i);
      CHECK(std::abs(static_cast<double>(L(data.mass_subtree[i]) - ref.mass_subtree[k])) <=
            tolerance<T>(4, c.model.nbodies(), ref.mass));
      CHECK(max_abs_diff<T>(data.com_subtree[i], ref.com_subtree[k]) <= bound);
    }
  });
}

TEMPLATE_TEST_CASE("jacobian_center_of_mass: central differences along the tangent space and per-body Jacobians",
                   "[centroidal][jcom]", float, double) {
  using T = TestType;
  for_each_robot_state<T>(20, 4300u, [](const RobotCase<T>& c, const State<T>& s) {
    const Model<L> ml = c.model.template cast<L>();
    const VecL ql = s.q.template cast<L>();
    Data<T> data(c.model);
    REQUIRE(jacobian_center_of_mass(c.model, data, s.q).ok());
    const Reference ref = reference(ml, ql);
    const double bound = tolerance<T>(16, c.model.nbodies() + 1, ref.scale);
    const MatL J_bodies = com_jacobian_from_bodies(ml, ql);
    CHECK(max_abs_diff<T>(data.Jcom, J_bodies) <= bound);
    // central differences: truncation h² ~ 1e-12 and rounding ε_L / h ~ 1e-13, relative to the robot's size
    CHECK(max_abs_diff<T>(data.Jcom, com_jacobian_fd(ml, ql)) <= bound + 1e-9 * static_cast<double>(ref.scale));
    // the same centre of mass as center_of_mass, to the bit: the same M1–M3
    Data<T> other(c.model);
    center_of_mass(c.model, other, s.q);
    CHECK(other.com == data.com);
    // ċ three ways: center_of_mass(q, q̇), J_c q̇ and ccrba's
    REQUIRE(center_of_mass(c.model, other, s.q, s.qd).ok());
    const double vbound = bound * (1 + static_cast<double>(s.qd.template lpNorm<1>()));
    CHECK(max_abs_diff<T>(other.vcom, data.Jcom * s.qd) <= vbound);
    REQUIRE(ccrba(c.model, other, s.q, s.qd).ok());
    CHECK(max_abs_diff<T>(other.vcom, data.Jcom * s.qd) <= vbound);
  });
}

TEMPLATE_TEST_CASE("center_of_mass: c̈ = J_c q̈ + (d/dt J_c) q̇, the derivative by central differences along q̇",
                   "[centroidal][com]", float, double) {
  using T = TestType;
  for_each_robot_state<T>(10, 4400u, [](const RobotCase<T>& c, const State<T>& s) {
    const Model<L> ml = c.model.template cast<L>();
    const VecL ql = s.q.template cast<L>(), qdl = s.qd.template cast<L>(), qddl = s.qdd.template cast<L>();
    Data<L> dl(ml);
    const L h = 1e-6L;
    VecL qp(ml.nq()), qm(ml.nq());
    integrate(ml, ql, qdl, h, qp);
    integrate(ml, ql, qdl, -h, qm);
    REQUIRE(jacobian_center_of_mass(ml, dl, qp).ok());
    const MatL Jp = dl.Jcom;
    REQUIRE(jacobian_center_of_mass(ml, dl, qm).ok());
    const MatL Jm = dl.Jcom;
    REQUIRE(jacobian_center_of_mass(ml, dl, ql).ok());
    const Vector3<L> expected = dl.Jcom * qddl + (Jp - Jm) / (2 * h) * qdl;
    Data<T> data(c.model);
    REQUIRE(center_of_mass(c.model, data, s.q, s.qd, s.qdd).ok());
    const Reference ref = reference(ml, ql);
    const double size = static_cast<double>(ref.scale) * (1 + static_cast<double>(qdl.squaredNorm() + qddl.lpNorm<1>()));
    CHECK(max_abs_diff<T>(data.acom, expected) <= tolerance<T>(32, c.model.nbodies() + 1, size) + 1e-8 * size);
  });
}

TEMPLATE_TEST_CASE("ccrba: A_g q̇ is the bodies' momentum about c, A_g's linear rows are M J_c, I_g the inertia about c",
                   "[centroidal][ccrba]", float, double) {
  using T = TestType;
  for_each_robot_state<T>(20, 4500u, [](const RobotCase<T>& c, const State<T>& s) {
    const Model<L> ml = c.model.template cast<L>();
    const VecL ql = s.q.template cast<L>(), qdl = s.qd.template cast<L>();
    const Reference ref = reference(ml, ql);
    Data<T> data(c.model);
    REQUIRE(ccrba(c.model, data, s.q, s.qd).ok());
    const double size = static_cast<double>(ref.mass * ref.scale * ref.scale);
    const double bound = tolerance<T>(32, c.model.nbodies() + 1, size);
    const Eigen::Matrix<L, 6, 1> hg = momentum_about(ml, ql, qdl, ref.com);
    CHECK(max_abs_diff<T>(data.hg, hg) <= bound * (1 + static_cast<double>(qdl.lpNorm<1>())));
    CHECK(data.hg == Force<T>(data.Ag * s.qd));
    // the linear rows: M J_c (J_c from jacobian_center_of_mass in T)
    Data<T> other(c.model);
    REQUIRE(jacobian_center_of_mass(c.model, other, s.q).ok());
    CHECK(max_abs_diff<T>(data.Ag.bottomRows(3), other.mass * other.Jcom) <= bound);
    // every column: the momentum about c of q̇ = e_k
    const MatL Ag_ref = [&] {
      MatL A(6, ml.nv());
      for (int k = 0; k < ml.nv(); ++k) A.col(k) = momentum_about(ml, ql, VecL::Unit(ml.nv(), k), ref.com);
      return A;
    }();
    CHECK(max_abs_diff<T>(data.Ag, Ag_ref) <= bound);
    // I_g: mass M, no first moment, rotational inertia about c
    CHECK(std::abs(static_cast<double>(L(data.Ig.m) - ref.mass)) <= tolerance<T>(4, c.model.nbodies(), ref.mass));
    CHECK(data.Ig.h.isZero());
    CHECK(max_abs_diff<T>(data.Ig.I.matrix(), inertia_about(ml, ql, ref.com)) <= bound);
    CHECK(max_abs_diff<T>(data.com, ref.com) <= tolerance<T>(16, c.model.nbodies() + 1, ref.scale));
  });
}

TEMPLATE_TEST_CASE("kinetic_energy is ½ q̇ᵀ H q̇ from crba; potential_energy is −M gᵀ c", "[centroidal][energy]", float,
                   double) {
  using T = TestType;
  for_each_robot_state<T>(20, 4600u, [](const RobotCase<T>& c, const State<T>& s) {
    const Model<L> ml = c.model.template cast<L>();
    const VecL ql = s.q.template cast<L>(), qdl = s.qd.template cast<L>();
    Data<L> dl(ml);
    crba(ml, dl, ql);
    const MatL H = dense_H(ml, dl);
    const L T_ref = qdl.dot(H * qdl) / 2;
    Data<T> data(c.model);
    REQUIRE(kinetic_energy(c.model, data, s.q, s.qd).ok());
    const double ke_scale = static_cast<double>(H.cwiseAbs().maxCoeff() * qdl.squaredNorm()) + 1;
    CHECK(std::abs(static_cast<double>(L(data.kinetic_energy) - T_ref)) <=
          tolerance<T>(16, c.model.nv() + 1, ke_scale));
    const Reference ref = reference(ml, ql);
    const L V_ref = -ref.mass * ml.gravity().dot(ref.com);
    REQUIRE(potential_energy(c.model, data, s.q).ok());
    CHECK(std::abs(static_cast<double>(L(data.potential_energy) - V_ref)) <=
          tolerance<T>(16, c.model.nbodies() + 1, ref.mass * ref.scale * ml.gravity().norm()));
  });
}

namespace {

/// The largest |E(t) − E(0)| / (|E(0)| + 1) over 0.5 s of the unforced motion q̈ = aba(q, q̇, 0) from s,
/// E = kinetic_energy + potential_energy, integrated by the classical Runge–Kutta method with step h, its
/// configuration stages taken on the manifold: q ⊕ δ = integrate(q, δ).
double rk4_energy_drift(const Model<double>& m, const State<double>& s, double h) {
  using V = Eigen::VectorXd;
  Data<double> d(m);
  const V tau = V::Zero(m.nv());
  const auto energy = [&](const V& q, const V& v) {
    kinetic_energy(m, d, q, v);
    potential_energy(m, d, q);
    return d.kinetic_energy + d.potential_energy;
  };
  const auto acc = [&](const V& q, const V& v) { return V(aba(m, d, q, v, tau)); };
  const auto plus = [&](const V& q, const V& dq) {
    V out(m.nq());
    integrate(m, q, dq, 1.0, out);
    return out;
  };
  V q = s.q, v = s.qd;
  const double E0 = energy(q, v);
  double worst = 0;
  for (int step = 0; step < static_cast<int>(0.5 / h + 0.5); ++step) {
    const V k1v = acc(q, v);
    const V k2q = v + h / 2 * k1v, k2v = acc(plus(q, h / 2 * v), k2q);
    const V k3q = v + h / 2 * k2v, k3v = acc(plus(q, h / 2 * k2q), k3q);
    const V k4q = v + h * k3v, k4v = acc(plus(q, h * k3q), k4q);
    q = plus(q, h / 6 * (v + 2 * k2q + 2 * k3q + k4q));
    v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
    worst = std::max(worst, std::abs(energy(q, v) - E0));
  }
  return worst / (std::abs(E0) + 1);
}

}  // namespace

// Energy conservation of an unforced simulation, to the integrator's order: the energy error of a consistent
// method of order p falls by 2^p when h halves, and a dynamics or energy term that is wrong (a missing
// Coriolis term, a potential whose gradient is not the gravity torques) leaves an error that does not fall
// with h (ratio 1; measured so with a wrong configuration update). Classical RK4 is of order 4 on a vector
// space; with its stages composed by integrate on SO(3), SE(2) and SE(3) (spherical, planar and free joints)
// without the dexp⁻¹ correction of Munthe-Kaas, its order is 2, the h⁴ terms still showing at larger h. So over
// h = 0.01, 0.005, 0.0025, 0.00125: every ratio is at least 4/1.5 (the method converges, order ≥ 2), and the
// last ratio is 16 (±40 %) when every joint has one DoF, between 4/1.5 and 16·1.4 otherwise (measured over
// these cases: 14.2–16.2, and 3.1–4.0). In double: float's round-off would hide the smaller steps' errors.
TEST_CASE("energy: an unforced simulation (aba, RK4) conserves T + V to the integrator's order", "[centroidal][energy][slow]") {
  for_each_robot_state<double>(30, 4700u, [](const RobotCase<double>& c, const State<double>& s) {
    bool vector_space = true;
    for (int i = 0; i < c.model.nbodies(); ++i) vector_space = vector_space && c.model.motion_subspaces()[i].cols() == 1;
    double e[4];
    for (int k = 0; k < 4; ++k) e[k] = rk4_energy_drift(c.model, s, 0.01 / (1 << k));
    INFO("energy drift " << e[0] << ", " << e[1] << ", " << e[2] << ", " << e[3]
                         << (vector_space ? " (one-DoF joints: order 4)" : " (Lie-group joints: order 2)"));
    CHECK(e[0] < 1e-2);  // the motion is resolved
    for (int k = 0; k < 3; ++k) CHECK(e[k] / e[k + 1] >= 4 / 1.5);
    const double last = e[2] / e[3];
    CHECK(last >= (vector_space ? 16 / 1.4 : 4 / 1.5));
    CHECK(last <= 16 * 1.4);
  });
}

TEST_CASE("centroidal calls: a zero quaternion or a non-finite input gives NaN and names it", "[centroidal][checks]") {
  const Model<double> model = robots::humanoid30<double>();
  Data<double> data(model);
  Eigen::VectorXd q = random_configuration(model, 7);
  const Eigen::VectorXd qd = Eigen::VectorXd::Ones(model.nv());
  REQUIRE(ccrba(model, data, q, qd).ok());
  Eigen::VectorXd bad_qd = qd;
  bad_qd(4) = std::nan("");
  const Status s = ccrba(model, data, q, bad_qd);
  CHECK(s.code == Status::Code::non_finite_input);
  CHECK(std::string(s.argument) == "qd");
  CHECK(s.row == 4);
  CHECK(data.Ag.array().isNaN().all());
  CHECK(data.com.array().isNaN().all());
  CHECK(kinetic_energy(model, data, q, bad_qd).code == Status::Code::non_finite_input);
  CHECK(std::isnan(data.kinetic_energy));
  q.segment<4>(3).setZero();  // the torso's quaternion
  CHECK(jacobian_center_of_mass(model, data, q).code == Status::Code::invalid_configuration);
  CHECK(data.Jcom.array().isNaN().all());
  CHECK(center_of_mass(model, data, q, qd, qd).code == Status::Code::invalid_configuration);
  CHECK(data.acom.array().isNaN().all());
  CHECK(potential_energy(model, data, q).code == Status::Code::invalid_configuration);
  CHECK(std::isnan(data.potential_energy));
}

TEST_CASE("centroidal calls instantiate in cpp_bin_float_50 and agree with long double", "[centroidal][scalars]") {
  using B = boost::multiprecision::cpp_bin_float_50;
  const Model<double> md = robots::random_tree<double>(9, 77u);
  const Model<L> ml = md.cast<L>();
  const Model<B> mb = md.cast<B>();
  const Eigen::VectorXd q = random_configuration(md, 5);
  const Eigen::VectorXd qd = Eigen::VectorXd::LinSpaced(md.nv(), -1, 1);
  Data<L> dl(ml);
  Data<B> db(mb);
  REQUIRE(ccrba(ml, dl, q.cast<L>(), qd.cast<L>()).ok());
  REQUIRE(ccrba(mb, db, q.cast<B>(), qd.cast<B>()).ok());
  REQUIRE(jacobian_center_of_mass(mb, db, q.cast<B>()).ok());
  REQUIRE(jacobian_center_of_mass(ml, dl, q.cast<L>()).ok());
  REQUIRE(center_of_mass(mb, db, q.cast<B>(), qd.cast<B>(), qd.cast<B>()).ok());
  REQUIRE(kinetic_energy(mb, db, q.cast<B>(), qd.cast<B>()).ok());
  REQUIRE(potential_energy(mb, db, q.cast<B>()).ok());
  const double tol = 1e3 * eps<L>();
  CHECK(static_cast<double>((db.Ag.template cast<L>() - dl.Ag).cwiseAbs().maxCoeff()) <= tol);
  CHECK(static_cast<double>((db.Jcom.template cast<L>() - dl.Jcom).cwiseAbs().maxCoeff()) <= tol);
  REQUIRE(kinetic_energy(ml, dl, q.cast<L>(), qd.cast<L>()).ok());
  CHECK(std::abs(static_cast<double>(static_cast<L>(db.kinetic_energy) - dl.kinetic_energy)) <= tol * 100);
}
