// frame_placement / frame_placements: where named frames are, in world coordinates, after forward_kinematics.
//
// Reference: docs/conventions.md#transforms-e-r-and-pinocchios-omf (the (E, r) convention and its
// Pinocchio counterpart); Featherstone, Rigid Body Dynamics Algorithms, 2008, §2.8 (composition of
// Plücker transforms).
//   P1  for each frame f fixed on body b with ^f X_b = placement:
//         ^f X_0 = ^f X_b · ^b X_0   (b = no_parent, a frame on the base: ^f X_0 = ^f X_b)
// The result (E, r) = ^f X_0: E maps world coordinates into frame coordinates, r is the frame's origin in
// world coordinates. Pinocchio's data.oMf[f] holds the same placement the other way round:
// oMf.rotation() = Eᵀ (the frame's axes as columns, in world coordinates), oMf.translation() = r.
// Contract: data built for this model and forward_kinematics (or compute_all_terms) already run for the
// q of interest: these calls read data.X_world and do not check that it is current. frame_placement
// returns ^f X_0 of one frame (a frame index into model.frames(), or a Frame of this model, e.g.
// model.frame("flange") looked up once at set-up); frame_placements writes data.X_frame[f] for every
// frame (Pinocchio's updateFramePlacements) and returns it. Arguments are checked (detail/check.hpp); a
// failed check returns NaN (frame_placement) or leaves data.X_frame as it was (frame_placements).
// Cost: one composition (36 multiplications) per frame. noexcept; never allocate.
#pragma once

#include <vector>

#include "treedyn/algorithms/detail/outward_pass.hpp"
#include "treedyn/detail/check.hpp"
#include "treedyn/detail/scalar.hpp"
#include "treedyn/model/data.hpp"
#include "treedyn/model/model.hpp"

namespace treedyn {
namespace detail {

/// P1 for one frame, from data.X_world as forward_kinematics left it.
template <class Scalar, int N>
Transform<Scalar> frame_world_placement(const Data<Scalar, N>& data, const Frame<Scalar>& frame) noexcept {
  return frame.body == no_parent ? frame.placement : frame.placement * data.X_world[frame.body];
}

/// P1 for every frame into data.X_frame.
template <class Scalar, int N>
void frame_placements_given_world(const Model<Scalar, N>& model, Data<Scalar, N>& data) noexcept {
  const std::vector<Frame<Scalar>>& frames = model.frames();
  for (int f = 0; f < data.X_frame.size(); ++f)
    data.X_frame[f] = frame_world_placement(data, frames[static_cast<std::size_t>(f)]);
}

}  // namespace detail

/// ^f X_0 of frame `frame_index` (an index into model.frames()): E = world → frame rotation, r = the frame's
/// origin in world coordinates. Reads data.X_world (forward_kinematics first).
template <class Scalar, int N>
Transform<Scalar> frame_placement(const Model<Scalar, N>& model, const Data<Scalar, N>& data,
                                  int frame_index) noexcept {
  constexpr const char* fn = "frame_placement";
  if (!(detail::same_model(fn, "data", data.model_id, model.id()) &&
        detail::index_ok(fn, "frame_index", frame_index, static_cast<long long>(model.frames().size()),
                         "model.frames().size()")))
    return detail::nan_transform<Scalar>();
  return detail::frame_world_placement(data, model.frames()[static_cast<std::size_t>(frame_index)]);
}

/// ^f X_0 of a frame on this model's bodies (e.g. model.frame("flange"), looked up once at set-up).
template <class Scalar, int N>
Transform<Scalar> frame_placement(const Model<Scalar, N>& model, const Data<Scalar, N>& data,
                                  const Frame<Scalar>& frame) noexcept {
  constexpr const char* fn = "frame_placement";
  if (!detail::same_model(fn, "data", data.model_id, model.id())) return detail::nan_transform<Scalar>();
  TREEDYN_CHECK(frame.body >= no_parent && frame.body < model.nbodies(), fn, "frame.body",
                "a body of this model or no_parent (model.nbodies())", model.nbodies(), frame.body,
                return detail::nan_transform<Scalar>());
  return detail::frame_world_placement(data, frame);
}

/// Every frame's ^f X_0 into data.X_frame (index f as in model.frames()), in one pass over the frames.
/// Reads data.X_world (forward_kinematics first). Returns data.X_frame.
template <class Scalar, int N>
const detail::Array<Transform<Scalar>, detail::frame_capacity(N)>& frame_placements(const Model<Scalar, N>& model,
                                                                                  Data<Scalar, N>& data) noexcept {
  if (!detail::same_model("frame_placements", "data", data.model_id, model.id())) return data.X_frame;
  detail::frame_placements_given_world(model, data);
  return data.X_frame;
}

}  // namespace treedyn
