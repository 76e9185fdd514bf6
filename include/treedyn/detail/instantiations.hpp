// The list of explicit instantiations of the compiled component (treedyn/compiled.hpp): every public
// algorithm for a scalar S, N = Dynamic, and the two vector argument types V it serves (Eigen::VectorX<S> and
// StridedVectorMap<S>), without external forces and with them (std::vector<Force<S>> with dense vectors,
// ForceRows<S> with strided maps). TREEDYN_INSTANTIATIONS(extern, S) declares them; TREEDYN_INSTANTIATIONS(, S) defines
// them (src/compiled/*.cpp, one unit per scalar and vector type, each within the test units' compile budget). Each line must repeat the template's signature exactly (its
// return type, parameter types and noexcept), with the deduced template arguments substituted.
#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>

namespace treedyn {

/// A vector of S read through a stride (no copy), e.g. a NumPy array: one of the two vector argument types
/// the compiled component is instantiated for.
template <class S>
using StridedVectorMap = Eigen::Map<const Eigen::Matrix<S, Eigen::Dynamic, 1>, 0, Eigen::InnerStride<>>;

}  // namespace treedyn

/// The calls whose vector arguments are all of type V (scalar S, N = Dynamic).
#define TREEDYN_INSTANTIATIONS_ON(EXTERN, S, V)                                                                    \
  EXTERN template const detail::Array<Transform<S>, Dynamic>& forward_kinematics(                              \
      const Model<S>&, Data<S>&, const Eigen::MatrixBase<V>&) noexcept;                                        \
  EXTERN template const VectorN<S, Dynamic>& rnea(const Model<S>&, Data<S>&, const Eigen::MatrixBase<V>&,      \
                                                  const Eigen::MatrixBase<V>&, const Eigen::MatrixBase<V>&,    \
                                                  const detail::NoExternalForces<S>&) noexcept;                \
  EXTERN template const VectorN<S, Dynamic>& bias(const Model<S>&, Data<S>&, const Eigen::MatrixBase<V>&,      \
                                                  const Eigen::MatrixBase<V>&,                                 \
                                                  const detail::NoExternalForces<S>&) noexcept;                \
  EXTERN template const PackedVector<S, Dynamic>& crba(const Model<S>&, Data<S>&,                              \
                                                       const Eigen::MatrixBase<V>&) noexcept;                  \
  EXTERN template const VectorN<S, Dynamic>& gravity_torques(const Model<S>&, Data<S>&,                        \
                                                             const Eigen::MatrixBase<V>&) noexcept;            \
  EXTERN template FactorStatus compute_all_terms(const Model<S>&, Data<S>&, const Eigen::MatrixBase<V>&,       \
                                                 const Eigen::MatrixBase<V>&) noexcept;                        \
  EXTERN template const VectorN<S, Dynamic>& aba(const Model<S>&, Data<S>&, const Eigen::MatrixBase<V>&,       \
                                                 const Eigen::MatrixBase<V>&, const Eigen::MatrixBase<V>&,     \
                                                 const detail::NoExternalForces<S>&) noexcept;                 \
  EXTERN template const VectorN<S, Dynamic>& modified_aba(                                                     \
      const Model<S>&, Data<S>&, const Eigen::MatrixBase<V>&, const Eigen::MatrixBase<V>&,                     \
      const Eigen::MatrixBase<V>&, const detail::NoExternalForces<S>&) noexcept;                               \
  EXTERN template const VectorN<S, Dynamic>& forward_dynamics_crba(                                            \
      const Model<S>&, Data<S>&, const Eigen::MatrixBase<V>&, const Eigen::MatrixBase<V>&,                     \
      const Eigen::MatrixBase<V>&, const detail::NoExternalForces<S>&) noexcept;                               \
  EXTERN template const MatrixN<S, Dynamic>& minverse_ltdl(const Model<S>&, Data<S>&,                          \
                                                           MinverseLtdlWorkspace<S, Dynamic>&,                 \
                                                           const Eigen::MatrixBase<V>&) noexcept;              \
  EXTERN template const MatrixN<S, Dynamic>& minverse_aba(const Model<S>&, Data<S>&,                           \
                                                          MinverseAbaWorkspace<S, Dynamic>&,                   \
                                                          const Eigen::MatrixBase<V>&) noexcept;               \
  EXTERN template const typename OperationalFrames<S>::MatrixX& oscm(                                          \
      const Model<S>&, Data<S>&, OperationalFrames<S>&, const Eigen::MatrixBase<V>&) noexcept;                 \
  EXTERN template const typename OperationalFrames<S>::MatrixX& oscm_faithful(                                 \
      const Model<S>&, Data<S>&, OperationalFrames<S>&, const Eigen::MatrixBase<V>&) noexcept;                 \
  EXTERN template const typename OperationalFrames<S>::MatrixX& oscm_dense(                                    \
      const Model<S>&, Data<S>&, OperationalFrames<S>&, const Eigen::MatrixBase<V>&) noexcept;                 \
  EXTERN template const typename OperationalFrames<S>::MatrixX& osim(                                          \
      const Model<S>&, Data<S>&, OperationalFrames<S>&, const Eigen::MatrixBase<V>&) noexcept;                 \
  EXTERN template const typename SchurWorkspace<S>::MatrixX& minverse_schur(                                   \
      const Model<S>&, Data<S>&, SchurWorkspace<S>&, const Eigen::MatrixBase<V>&) noexcept;                    \
  EXTERN template const typename SchurWorkspace<S>::VectorX& minverse_apply_schur(                             \
      const Model<S>&, Data<S>&, SchurWorkspace<S>&, const Eigen::MatrixBase<V>&,                              \
      const Eigen::MatrixBase<V>&) noexcept;                                                                   \
  EXTERN template const Matrix6<S>& oscm_schur(const Model<S>&, Data<S>&, OscmSchurWorkspace<S>&,              \
                                               const Eigen::MatrixBase<V>&) noexcept;                          \
  EXTERN template const Matrix6<S>& osim_schur(const Model<S>&, Data<S>&, OscmSchurWorkspace<S>&,              \
                                               const Eigen::MatrixBase<V>&) noexcept;                          \
  EXTERN template const Eigen::Matrix<S, Eigen::Dynamic, 1>& minverse_apply_fixman(                            \
      const Model<S>&, Data<S>&, FixmanWorkspace<S>&, const Eigen::MatrixBase<V>&,                             \
      const Eigen::MatrixBase<V>&) noexcept;                                                                   \
  EXTERN template const ContactStepStatus<S>& contact_step(                                                    \
      const Model<S>&, Data<S>&, ContactStepWorkspace<S, Dynamic>&, const Eigen::MatrixBase<V>&,               \
      const Eigen::MatrixBase<V>&, const Eigen::MatrixBase<V>&, const std::vector<Contact<S>>&, S) noexcept;   \
  EXTERN template void integrate(const Model<S>&, const Eigen::MatrixBase<V>&, const Eigen::MatrixBase<V>&,    \
                                 const S&, VectorRef<S>) noexcept;                                             \
  EXTERN template void difference(const Model<S>&, const Eigen::MatrixBase<V>&, const Eigen::MatrixBase<V>&,   \
                                  VectorRef<S>) noexcept;

/// The calls with external forces of type F (scalar S, N = Dynamic, vectors of type V).
#define TREEDYN_INSTANTIATIONS_FORCES(EXTERN, S, V, F)                                                             \
  EXTERN template const VectorN<S, Dynamic>& rnea(const Model<S>&, Data<S>&, const Eigen::MatrixBase<V>&,      \
                                                  const Eigen::MatrixBase<V>&, const Eigen::MatrixBase<V>&,    \
                                                  const F&) noexcept;                                          \
  EXTERN template const VectorN<S, Dynamic>& bias(const Model<S>&, Data<S>&, const Eigen::MatrixBase<V>&,      \
                                                  const Eigen::MatrixBase<V>&, const F&) noexcept;             \
  EXTERN template const VectorN<S, Dynamic>& aba(const Model<S>&, Data<S>&, const Eigen::MatrixBase<V>&,       \
                                                 const Eigen::MatrixBase<V>&, const Eigen::MatrixBase<V>&,     \
                                                 const F&) noexcept;                                           \
  EXTERN template const VectorN<S, Dynamic>& modified_aba(const Model<S>&, Data<S>&,                           \
                                                          const Eigen::MatrixBase<V>&,                         \
                                                          const Eigen::MatrixBase<V>&,                         \
                                                          const Eigen::MatrixBase<V>&, const F&) noexcept;     \
  EXTERN template const VectorN<S, Dynamic>& forward_dynamics_crba(const Model<S>&, Data<S>&,                  \
                                                                   const Eigen::MatrixBase<V>&,                \
                                                                   const Eigen::MatrixBase<V>&,                \
                                                                   const Eigen::MatrixBase<V>&,                \
                                                                   const F&) noexcept;

/// The calls without vector arguments (scalar S, N = Dynamic).
#define TREEDYN_INSTANTIATIONS_BASE(EXTERN, S)                                                                     \
  EXTERN template const Eigen::Matrix<S, 6, Dynamic>& frame_jacobian(const Model<S>&, Data<S>&, int,           \
                                                                     const Transform<S>&,                      \
                                                                     ReferenceFrame) noexcept;                 \
  EXTERN template const Eigen::Matrix<S, 6, Dynamic>& frame_jacobian(const Model<S>&, Data<S>&,                \
                                                                     const std::string&, ReferenceFrame);      \
  EXTERN template MatrixN<S, Dynamic> dense_H(const Model<S>&, const Data<S>&);                                \
  EXTERN template FactorStatus factor_H(const Model<S>&, Data<S>&) noexcept;                                    \
  EXTERN template FactorStatus solve_H(const Model<S>&, const Data<S>&,                                        \
                                       Eigen::Matrix<S, Eigen::Dynamic, 1>&) noexcept;                         \
  EXTERN template Transform<S> frame_placement(const Model<S>&, const Data<S>&, int) noexcept;                 \
  EXTERN template Transform<S> frame_placement(const Model<S>&, const Data<S>&, const Frame<S>&) noexcept;     \
  EXTERN template const detail::Array<Transform<S>, Dynamic>& frame_placements(const Model<S>&,               \
                                                                               Data<S>&) noexcept;             \
  EXTERN template const typename OperationalFrames<S>::MatrixX& oscm(const Model<S>&, Data<S>&,                \
                                                                     OperationalFrames<S>&) noexcept;          \
  EXTERN template const typename OperationalFrames<S>::MatrixX& osim(const Model<S>&, Data<S>&,                \
                                                                     OperationalFrames<S>&) noexcept;          \
  EXTERN template void neutral(const Model<S>&, VectorRef<S>) noexcept;                                        \
  EXTERN template void impulse_aba(const Model<S>&, Data<S>&, const std::vector<Force<S>>&,                    \
                                   Eigen::MatrixBase<Eigen::Matrix<S, Eigen::Dynamic, 1>>&) noexcept;          \
  EXTERN template int detect_contacts(const Model<S>&, const Data<S>&, const CollisionGeometry<S>&,            \
                                      std::vector<Contact<S>>&, const S&,                                      \
                                      const ContactProperties<S>&) noexcept;

/// The calls on Eigen::VectorX<S> (dense vectors), external forces in a std::vector<Force<S>>.
#define TREEDYN_INSTANTIATIONS_DENSE(EXTERN, S)                                                       \
  TREEDYN_INSTANTIATIONS_ON(EXTERN, S, Eigen::Matrix<S EIGEN_COMMA Eigen::Dynamic EIGEN_COMMA 1>) \
  TREEDYN_INSTANTIATIONS_FORCES(EXTERN, S, Eigen::Matrix<S EIGEN_COMMA Eigen::Dynamic EIGEN_COMMA 1>, \
                                std::vector<Force<S>>)

/// The calls on StridedVectorMap<S> (strided maps of const data), external forces as ForceRows<S>.
#define TREEDYN_INSTANTIATIONS_MAPPED(EXTERN, S)                   \
  TREEDYN_INSTANTIATIONS_ON(EXTERN, S, StridedVectorMap<S>)        \
  TREEDYN_INSTANTIATIONS_FORCES(EXTERN, S, StridedVectorMap<S>, ForceRows<S>)

/// Every instantiation for scalar S.
#define TREEDYN_INSTANTIATIONS(EXTERN, S)   \
  TREEDYN_INSTANTIATIONS_BASE(EXTERN, S)    \
  TREEDYN_INSTANTIATIONS_DENSE(EXTERN, S)   \
  TREEDYN_INSTANTIATIONS_MAPPED(EXTERN, S)
