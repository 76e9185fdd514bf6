// treedyn Data: every workspace quantity of the algorithms, sized once from a Model.
//
// The Model is immutable; Data is the workspace. Only the Model builder and this constructor may
// allocate; with a fixed N not even this constructor does (every member is fixed-size or has a fixed
// maximum size). One Data per thread. Data holds only what the O(N) algorithms share, so its size grows
// with the work: O(N) per-body and per-DoF members plus H and its LTDL factor on the model's packed
// ancestor rows (n + D1 entries, model.h_pattern(); Featherstone (2005) §5, see docs/references.md).
// Nothing here is n×n: the dense H is a view made on request (dense_H, crba.hpp), and H⁻¹ belongs to the
// workspace of the algorithm that forms it (MinverseLtdlWorkspace, MinverseAbaWorkspace). X_frame holds one
// placement per named frame (one per moving body plus one per merged fixed link): with a fixed N it has
// room for 2N frames (detail::frame_capacity), and this constructor throws std::length_error for a model
// with more.
#pragma once

#include <cstddef>
#include <cstdint>

#include "treedyn/detail/joint_pivot.hpp"
#include "treedyn/detail/storage.hpp"
#include "treedyn/status.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/spatial/articulated_inertia.hpp"
#include "treedyn/spatial/rigid_inertia.hpp"
#include "treedyn/spatial/transform.hpp"

namespace treedyn {

template <class Scalar, int N = Dynamic>
struct Data {
  explicit Data(const Model<Scalar, N>& model)
      : model_id(model.id()),
        Xup(model.nbodies(), Transform<Scalar>::identity()),
        X_world(model.nbodies(), Transform<Scalar>::identity()),
        X_frame(static_cast<int>(model.frames().size()), Transform<Scalar>::identity()),
        v(model.nbodies(), Motion<Scalar>::Zero()),
        a(model.nbodies(), Motion<Scalar>::Zero()),
        f(model.nbodies(), Force<Scalar>::Zero()),
        IC(model.nbodies(), RigidInertia<Scalar>::zero()),
        R_root(model.nbodies(), Matrix3<Scalar>::Identity()),
        o_parent(model.nbodies(), Vector3<Scalar>::Zero()),
        S_root(Eigen::Matrix<Scalar, 6, N>::Zero(6, model.nv())),
        tau(VectorN<Scalar, N>::Zero(model.nv())),
        C(VectorN<Scalar, N>::Zero(model.nv())),
        g(VectorN<Scalar, N>::Zero(model.nv())),
        qdd(VectorN<Scalar, N>::Zero(model.nv())),
        H(PackedVector<Scalar, N>::Zero(model.h_pattern().nonzeros())),
        H_factor(PackedVector<Scalar, N>::Zero(model.h_pattern().nonzeros())),
        J(Eigen::Matrix<Scalar, 6, N>::Zero(6, model.nv())),
        IA(model.nbodies(), ArticulatedInertia<Scalar>::zero()),
        pA(model.nbodies(), Force<Scalar>::Zero()),
        c(model.nbodies(), Motion<Scalar>::Zero()),
        D(model.nbodies(), detail::PivotMatrix<Scalar>::Zero(1, 1)),
        U(Eigen::Matrix<Scalar, 6, N>::Zero(6, model.nv())),
        U_Dinv(Eigen::Matrix<Scalar, 6, N>::Zero(6, model.nv())),
        Dinv_u(VectorN<Scalar, N>::Zero(model.nv())),
        mass_subtree(model.nbodies(), Scalar(0)),
        h_subtree(model.nbodies(), Vector3<Scalar>::Zero()),
        com_subtree(model.nbodies(), Vector3<Scalar>::Zero()),
        IC_world(model.nbodies(), RigidInertia<Scalar>::zero()),
        com_offset(model.nbodies(), Vector3<Scalar>::Zero()),
        Jcom(Eigen::Matrix<Scalar, 3, N>::Zero(3, model.nv())),
        Ag(Eigen::Matrix<Scalar, 6, N>::Zero(6, model.nv())) {
    for (int i = 0; i < model.nbodies(); ++i) {
      const Eigen::Index ni = model.motion_subspace(i).cols();
      D[i] = detail::PivotMatrix<Scalar>::Zero(ni, ni);
    }
  }

  /// Model::id() of the model this Data was built for; every algorithm checks it (detail/check.hpp).
  std::uint64_t model_id;
  /// Status of the last check of the inputs and computation of the joint transforms from q (every
  /// algorithm starts with them): Code::invalid_configuration naming the BODY whose quaternion is zero, or
  /// Code::non_finite_input naming the argument and entry holding a NaN or an infinity; the algorithm then
  /// set its outputs to NaN. Algorithms that return no status (rnea, bias, crba, forward_kinematics,
  /// impulse_aba) report it only here (docs/errors.md#finite-inputs).
  FactorStatus config_status;

  // per body (index i)
  detail::Array<Transform<Scalar>, N> Xup;      ///< ^i X_λ(i) = XJ(q_i) X_T(i)
  detail::Array<Transform<Scalar>, N> X_world;  ///< ^i X_0: body i's placement (world → body coordinates)
  detail::Array<Transform<Scalar>, detail::frame_capacity(N)> X_frame;  ///< ^f X_0 of model.frames()[f]
                                                ///< (frame_placements.hpp)
  detail::Array<Motion<Scalar>, N> v;           ///< body velocities, body coordinates
  detail::Array<Motion<Scalar>, N> a;           ///< body accelerations (gravity as base acceleration)
  detail::Array<Force<Scalar>, N> f;            ///< RNEA body forces
  detail::Array<RigidInertia<Scalar>, N> IC;    ///< CRBA composite inertias: root axes, about body i's origin
  detail::Array<Matrix3<Scalar>, N> R_root;     ///< CRBA: ^i R_r, r = the root body of i's subtree (crba.hpp)
  detail::Array<Vector3<Scalar>, N> o_parent;   ///< CRBA: i's origin minus λ(i)'s, in root axes
  Eigen::Matrix<Scalar, 6, N> S_root;           ///< CRBA: S_i in root axes, about body i's origin

  // per DoF
  VectorN<Scalar, N> tau;                       ///< rnea output
  VectorN<Scalar, N> C;                         ///< bias output
  VectorN<Scalar, N> g;                         ///< gravity_torques output: τ that holds q against gravity
  VectorN<Scalar, N> qdd;                       ///< forward dynamics output
  PackedVector<Scalar, N> H;                    ///< crba output: H on packed ancestor rows (dense_H for n×n)
  PackedVector<Scalar, N> H_factor;             ///< LTDL factor of H on packed ancestor rows
  FactorStatus factor_status;                   ///< status of the last factorization of H
  Eigen::Matrix<Scalar, 6, N> J;                ///< frame_jacobian output

  // articulated-body methods (aba.hpp, modified_aba.hpp)
  detail::Array<ArticulatedInertia<Scalar>, N> IA;  ///< articulated inertias IA_i (body coordinates)
  detail::Array<Force<Scalar>, N> pA;               ///< articulated bias forces pA_i
  detail::Array<Motion<Scalar>, N> c;               ///< velocity-product accelerations c_i = crm(v_i) S_i q̇_i
  detail::Array<detail::PivotMatrix<Scalar>, N> D;  ///< joint pivots D_i (n_i×n_i) as last formed, unfactored
  Eigen::Matrix<Scalar, 6, N> U;                    ///< U_i = IA_i S_i, one column per DoF
  Eigen::Matrix<Scalar, 6, N> U_Dinv;               ///< U_i D_i⁻¹, one column per DoF
  VectorN<Scalar, N> Dinv_u;                        ///< D_i⁻¹ u_i, u_i = τ_i − S_iᵀ pA_i
  FactorStatus aba_status;                          ///< last aba / modified_aba; row = BODY of a failed pivot

  // centre of mass, centroidal dynamics and energies (center_of_mass.hpp, jacobian_center_of_mass.hpp,
  // ccrba.hpp, energy.hpp; docs/centroidal.md). World coordinates throughout.
  detail::Array<Scalar, N> mass_subtree;            ///< m_s(i): mass of the subtree of body i (i and below)
  detail::Array<Vector3<Scalar>, N> h_subtree;      ///< m_s(i) (c_s(i) − o_i): its first moment about body i's origin
  detail::Array<Vector3<Scalar>, N> com_subtree;    ///< c_s(i): its centre of mass (o_i when m_s(i) = 0)
  detail::Array<RigidInertia<Scalar>, N> IC_world;  ///< ccrba: composite inertia of the subtree, about o_i
  detail::Array<Vector3<Scalar>, N> com_offset;     ///< ccrba: c − o_i, the centre of mass seen from body i's origin
  Scalar mass = Scalar(0);                          ///< M: total mass
  Vector3<Scalar> com = Vector3<Scalar>::Zero();    ///< c: centre of mass of the whole robot
  Vector3<Scalar> vcom = Vector3<Scalar>::Zero();   ///< ċ (center_of_mass with q̇, ccrba)
  Vector3<Scalar> acom = Vector3<Scalar>::Zero();   ///< c̈ (center_of_mass with q̈; gravity not included)
  Eigen::Matrix<Scalar, 3, N> Jcom;                 ///< J_c: ċ = J_c q̇ (jacobian_center_of_mass)
  Eigen::Matrix<Scalar, 6, N> Ag;                   ///< A_g: centroidal momentum matrix, ANGULAR rows first
  Force<Scalar> hg = Force<Scalar>::Zero();         ///< h_g = A_g q̇ = [k_G; l_G] about c
  RigidInertia<Scalar> Ig = RigidInertia<Scalar>::zero();  ///< I_g: centroidal composite inertia (about c, h = 0)
  Scalar kinetic_energy = Scalar(0);                ///< T = ½ q̇ᵀ H q̇ (energy.hpp)
  Scalar potential_energy = Scalar(0);              ///< V = −Σ m_i gᵀ p_i (energy.hpp)

  /// Bytes this Data occupies: the object itself plus the heap storage of every member (capacities ×
  /// element size; none with a fixed N). Setup-time bookkeeping, e.g. to check that Data grows as O(N).
  [[nodiscard]] std::size_t memory_bytes() const noexcept {
    return sizeof(*this) + detail::heap_bytes(Xup) + detail::heap_bytes(X_world) +
           detail::heap_bytes(X_frame) + detail::heap_bytes(g) + detail::heap_bytes(v) +
           detail::heap_bytes(a) + detail::heap_bytes(f) + detail::heap_bytes(IC) + detail::heap_bytes(R_root) +
           detail::heap_bytes(o_parent) + detail::heap_bytes(S_root) + detail::heap_bytes(tau) + detail::heap_bytes(C) +
           detail::heap_bytes(qdd) + detail::heap_bytes(H) + detail::heap_bytes(H_factor) + detail::heap_bytes(J) +
           detail::heap_bytes(IA) + detail::heap_bytes(pA) + detail::heap_bytes(c) + detail::heap_bytes(D) +
           detail::heap_bytes(U) + detail::heap_bytes(U_Dinv) + detail::heap_bytes(Dinv_u) +
           detail::heap_bytes(mass_subtree) + detail::heap_bytes(h_subtree) + detail::heap_bytes(com_subtree) +
           detail::heap_bytes(IC_world) + detail::heap_bytes(com_offset) + detail::heap_bytes(Jcom) +
           detail::heap_bytes(Ag);
  }
};

}  // namespace treedyn
