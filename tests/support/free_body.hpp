// One free body for the contact tests (tests/contact): a free flyer whose centre of mass is its joint's origin.
#pragma once

#include "treedyn/model/lie_group.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/model/model_builder.hpp"

namespace treedyn::test {

/// One free body of mass m with rotational inertia diag(I) about its centre of mass, the joint's origin, under
/// gravity g.
template <class T>
Model<T> free_body(T m, const detail::non_deduced<Vector3<T>>& I, const Vector3<T>& g) {
  ModelBuilder<T> b;
  b.add_body(no_parent, Joint<T>::free_flyer(), Transform<T>::identity(),
             RigidInertia<T>::from_mass_com_inertia(m, Vector3<T>::Zero(), Matrix3<T>(I.asDiagonal())));
  return b.build().with_gravity(g);
}

}  // namespace treedyn::test
