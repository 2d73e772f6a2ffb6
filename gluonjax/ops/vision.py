"""Vision operators of MXNet's contrib namespace (``mx.nd.contrib.X``, ``F.contrib.X``).

- box_iou, box_nms: overlaps and non-maximum suppression of boxes (src/operator/contrib/bounding_box)
- Proposal, MultiProposal: Faster R-CNN's region proposals (anchors, box deltas, greedy NMS)
- BilinearResize2D, AdaptiveAvgPooling2D: resampling of NCHW maps, as GluonCV's heads use them

Every kernel works on fixed shapes (XLA needs them): NMS keeps its survivors at the front of the
box axis, in score order, and fills the rest with -1, as MXNet does.
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ..base import MXNetError, shape_str
from ._registry import P, register
from .nn_util import float32_only, float_only, same_dtype

_BOX_FORMATS = ('corner', 'center')


def _check_format(op, name, fmt):
    if fmt not in _BOX_FORMATS:
        raise MXNetError('%s: %s must be one of %s, got %r' % (op, name, _BOX_FORMATS, fmt))


def _to_corner(boxes, fmt):
    """(..., 4) boxes as (xmin, ymin, xmax, ymax) from MXNet's 'corner' or 'center' (x, y, w, h)."""
    if fmt == 'corner':
        return boxes
    xy, half = boxes[..., :2], boxes[..., 2:] / 2
    return jnp.concatenate([xy - half, xy + half], axis=-1)


def _from_corner(boxes, fmt):
    if fmt == 'corner':
        return boxes
    lo, hi = boxes[..., :2], boxes[..., 2:]
    return jnp.concatenate([(lo + hi) / 2, hi - lo], axis=-1)


def _pairwise_iou(a, b):
    """IoU of every corner box of ``a`` (..., N, 4) with every one of ``b`` (..., M, 4): (..., N, M).

    Widths are x2 - x1 (no +1, as MXNet); an empty union gives 0."""
    a, b = a[..., :, None, :], b[..., None, :, :]
    width = jnp.maximum(jnp.minimum(a[..., 2], b[..., 2]) - jnp.maximum(a[..., 0], b[..., 0]), 0)
    height = jnp.maximum(jnp.minimum(a[..., 3], b[..., 3]) - jnp.maximum(a[..., 1], b[..., 1]), 0)
    inter = width * height
    area_a = (a[..., 2] - a[..., 0]) * (a[..., 3] - a[..., 1])
    area_b = (b[..., 2] - b[..., 0]) * (b[..., 3] - b[..., 1])
    union = area_a + area_b - inter
    return jnp.where(union > 0, inter / jnp.where(union > 0, union, 1), 0)


@register('_contrib_box_iou', inputs=('lhs', 'rhs'),
          params=[P('format', 'str', 'corner')])
def box_iou(lhs, rhs, *, format):  # noqa: A002 (MXNet's parameter name)
    """Intersection over union of every box of ``lhs`` (..., 4) with every box of ``rhs`` (..., 4).

    The result has shape ``lhs.shape[:-1] + rhs.shape[:-1]``."""
    float_only('box_iou', lhs=lhs, rhs=rhs)
    _check_format('box_iou', 'format', format)
    if lhs.shape[-1:] != (4,) or rhs.shape[-1:] != (4,):
        raise MXNetError('box_iou: boxes need 4 coordinates on the last axis, got lhs %s rhs %s'
                         % (shape_str(lhs.shape), shape_str(rhs.shape)))
    # MXNet's backward of box_iou is zeros: no gradient reaches the boxes
    a = _to_corner(lax.stop_gradient(lhs).reshape(-1, 4), format)
    b = _to_corner(lax.stop_gradient(rhs).reshape(-1, 4), format)
    return _pairwise_iou(a, b).astype(lhs.dtype).reshape(lhs.shape[:-1] + rhs.shape[:-1])


_NMS_PARAMS = [P('overlap_thresh', 'float', 0.5), P('valid_thresh', 'float', 0.0), P('topk', 'int', -1),
               P('coord_start', 'int', 2), P('score_index', 'int', 1), P('id_index', 'int', -1),
               P('background_id', 'int', -1), P('force_suppress', 'bool', False),
               P('in_format', 'str', 'corner'), P('out_format', 'str', 'corner')]


def _nms_one(rows, overlap_thresh, valid_thresh, topk, coord_start, score_index, id_index,
             background_id, force_suppress, in_format, out_format):
    """NMS over the (N, K) rows of one batch item."""
    n = rows.shape[0]
    scores = rows[:, score_index]
    valid = scores > valid_thresh
    if id_index >= 0:  # rows of the background class (by default id -1: padding) take no part
        valid &= rows[:, id_index] != background_id
    order = jnp.argsort(jnp.where(valid, -scores, jnp.inf), stable=True)
    # Only the topk best rows can survive, so boxes are compared among them alone: a YOLOv3 on
    # COCO sends 80 x 1008 rows with topk 400, whose N x N overlaps would not fit in memory
    k = topk if 0 < topk < n else n
    rows, valid = rows[order[:k]], valid[order[:k]]
    corners = _to_corner(rows[:, coord_start:coord_start + 4], in_format)
    overlapping = _pairwise_iou(corners, corners) > overlap_thresh
    if id_index >= 0 and not force_suppress:
        overlapping &= rows[:, id_index][:, None] == rows[:, id_index][None, :]
    later = jnp.arange(k)[None, :] > jnp.arange(k)[:, None]
    suppresses = overlapping & later

    def visit(i, keep):  # a kept box suppresses the later boxes it overlaps
        return keep & ~(keep[i] & suppresses[i])
    keep = lax.fori_loop(0, k, visit, valid)
    if out_format != in_format:
        boxes = _from_corner(corners, out_format)
        rows = rows.at[:, coord_start:coord_start + 4].set(boxes)
    front = jnp.argsort(~keep, stable=True)  # survivors first, still in score order
    kept = jnp.where(keep[front][:, None], rows[front], jnp.asarray(-1, rows.dtype))
    return jnp.concatenate([kept, jnp.full((n - k, rows.shape[1]), -1, rows.dtype)])


# MXNet numbers the visible output by its two (the other is a hidden workspace): 'output0'
@register('_contrib_box_nms', aliases=('_contrib_box_non_maximum_suppression',), mxnet_outputs=2,
          output_names=('output0',), params=_NMS_PARAMS)
def box_nms(data, *, overlap_thresh, valid_thresh, topk, coord_start, score_index, id_index,
            background_id, force_suppress, in_format, out_format):
    """Non-maximum suppression of the boxes on the second-last axis of ``data`` (..., N, K).

    Each row holds a score at ``score_index``, 4 coordinates from ``coord_start`` and optionally a
    class id at ``id_index``. Rows scoring at most ``valid_thresh``, or of class ``background_id``,
    are dropped; of the ``topk`` best, a row overlapping (IoU > ``overlap_thresh``) a better kept row
    of its class (any class with ``force_suppress``) is dropped. Survivors come first, by
    decreasing score; the other rows are -1."""
    float_only('box_nms', data=data)
    _check_format('box_nms', 'in_format', in_format)
    _check_format('box_nms', 'out_format', out_format)
    if data.ndim < 2:
        raise MXNetError('box_nms: data must have at least 2 axes (..., N, K), got %s' % shape_str(data.shape))
    width = data.shape[-1]
    for name, index, span in (('coord_start', coord_start, 4), ('score_index', score_index, 1),
                              ('id_index', id_index, 1)):
        if (index >= 0 or name != 'id_index') and not 0 <= index <= width - span:
            raise MXNetError('box_nms: %s=%d is out of range for rows of %d values (data %s)'
                             % (name, index, width, shape_str(data.shape)))
    flat = data.reshape((-1,) + data.shape[-2:])
    one = functools.partial(_nms_one, overlap_thresh=overlap_thresh, valid_thresh=valid_thresh, topk=topk,
                            coord_start=coord_start, score_index=score_index, id_index=id_index,
                            background_id=background_id, force_suppress=force_suppress,
                            in_format=in_format, out_format=out_format)
    return jax.vmap(one)(flat).reshape(data.shape)


# ---- box targets, matching and anchors (SSD / Faster R-CNN heads) --------------------------------

def _center_size(corners):
    """(..., 4) corner boxes as centers (..., 2) and sizes (..., 2)."""
    return (corners[..., :2] + corners[..., 2:]) / 2, corners[..., 2:] - corners[..., :2]


@register('_contrib_box_encode', inputs=('samples', 'matches', 'anchors', 'refs', 'means', 'stds'),
          num_outputs=2)
def box_encode(samples, matches, anchors, refs, means, stds):
    """Regression targets of the positive anchors (``samples`` > 0.5) for their matched ``refs``:
    ((center offset / anchor size, log(size ratio)) - means) / stds, and a mask of 1s on them.

    ``anchors`` (B, N, 4) and ``refs`` (B, M, 4) are corner boxes; ``matches`` (B, N) index refs."""
    if anchors.shape[-1:] != (4,) or refs.shape[-1:] != (4,) or samples.shape != anchors.shape[:-1]:
        raise MXNetError('box_encode: expected samples (B, N), anchors (B, N, 4) and refs (B, M, 4); got '
                         'samples %s anchors %s refs %s' % (shape_str(samples.shape), shape_str(anchors.shape),
                                                             shape_str(refs.shape)))
    # MXNet gives all six inputs one dtype (a float64 anchors with float32 samples is refused)
    same_dtype('box_encode', samples, matches=matches, anchors=anchors, refs=refs, means=means, stds=stds)
    index = jnp.clip(matches.astype(jnp.int32), 0, refs.shape[1] - 1)
    matched = jnp.take_along_axis(refs, index[..., None], axis=1)
    a_center, a_size = _center_size(anchors)
    r_center, r_size = _center_size(matched)
    encoded = jnp.concatenate([(r_center - a_center) / a_size, jnp.log(r_size / a_size)], axis=-1)
    positive = (samples > 0.5)[..., None]
    targets = jnp.where(positive, (encoded - means) / stds, 0)
    return targets.astype(anchors.dtype), jnp.broadcast_to(positive, targets.shape).astype(anchors.dtype)


@register('_contrib_box_decode', inputs=('data', 'anchors'),
          params=[P('std0', 'float', 1.0), P('std1', 'float', 1.0), P('std2', 'float', 1.0),
                  P('std3', 'float', 1.0), P('clip', 'float', -1.0), P('format', 'str', 'center')])
def box_decode(data, anchors, *, std0, std1, std2, std3, clip, format):  # noqa: A002 (MXNet's name)
    """Corner boxes from predicted offsets ``data`` (B, N, 4) relative to ``anchors`` (1, N, 4) in
    ``format``: the inverse of box_encode with zero means; log sizes are clipped at ``clip`` if > 0."""
    _check_format('box_decode', 'format', format)
    if data.ndim != 3 or data.shape[-1] != 4 or anchors.shape != (1,) + data.shape[1:]:
        raise MXNetError('box_decode: expected data (B, N, 4) and anchors (1, N, 4), got data %s anchors %s'
                         % (shape_str(data.shape), shape_str(anchors.shape)))
    same_dtype('box_decode', data, anchors=anchors)
    # MXNet defines no gradient for the decoding: zero for both inputs
    data, anchors = lax.stop_gradient(data), lax.stop_gradient(anchors)
    a_center, a_size = _center_size(_to_corner(anchors, format))
    offsets = data * jnp.asarray([std0, std1, std2, std3], data.dtype)
    log_size = offsets[..., 2:] if clip <= 0 else jnp.minimum(offsets[..., 2:], clip)
    center = offsets[..., :2] * a_size + a_center
    half = jnp.exp(log_size) * a_size / 2
    return jnp.concatenate([center - half, center + half], axis=-1).astype(data.dtype)


@register('_contrib_bipartite_matching', num_outputs=2,
          params=[P('is_ascend', 'bool', False), P('threshold', 'float'), P('topk', 'int', -1)])
def bipartite_matching(data, *, is_ascend, threshold, topk):
    """Greedy one-to-one matching on scores (..., N, M), best score first: the matched column of
    each row and the matched row of each column, -1 where unmatched. Scores not beyond ``threshold``
    (at or below it, at or above it with ``is_ascend``) never match. ``topk`` > 0 stops after topk + 1 matches:
    MXNet 1.9.1 counts that way."""
    float_only('bipartite_matching', data=data)
    if data.ndim < 2:
        raise MXNetError('bipartite_matching: data must be (..., N, M), got %s' % shape_str(data.shape))
    n, m = data.shape[-2:]
    limit = n * m if topk <= 0 else topk + 1

    def match_one(scores):
        flat = scores.reshape(-1)
        order = jnp.argsort(flat if is_ascend else -flat, stable=True)
        passes = flat < threshold if is_ascend else flat > threshold  # a score equal to it fails

        def visit(i, state):
            row_of, col_of, count = state
            k = order[i]
            r, c = (k // m).astype(jnp.int32), (k % m).astype(jnp.int32)
            take = passes[k] & (col_of[r] < 0) & (row_of[c] < 0) & (count < limit)
            return (row_of.at[c].set(jnp.where(take, r, row_of[c])),
                    col_of.at[r].set(jnp.where(take, c, col_of[r])), count + take)
        start = (jnp.full(m, -1, jnp.int32), jnp.full(n, -1, jnp.int32), jnp.int32(0))
        row_of, col_of, _ = lax.fori_loop(0, n * m, visit, start)
        return col_of, row_of
    cols, rows = jax.vmap(match_one)(data.reshape((-1, n, m)))
    lead = data.shape[:-2]
    return cols.reshape(lead + (n,)).astype(data.dtype), rows.reshape(lead + (m,)).astype(data.dtype)


def _multibox_match(iou, valid):
    """(positive anchors, matched ground truth per anchor) of MXNet's greedy matching: the best
    remaining (anchor, ground truth) pair above 1e-6 is matched, once per ground truth."""
    n_anchors, n_gt = iou.shape

    def round_(_, state):
        taken, used, match = state
        free = jnp.where(taken[:, None] | used[None, :] | ~valid[None, :], -jnp.inf, iou)
        best = jnp.argmax(free.reshape(-1))  # the first maximum, anchor-major, as MXNet scans
        a, g = best // n_gt, best % n_gt
        ok = free.reshape(-1)[best] > 1e-6
        return (taken.at[a].set(taken[a] | ok), used.at[g].set(used[g] | ok),
                match.at[a].set(jnp.where(ok, g, match[a]).astype(match.dtype)))
    start = (jnp.zeros(n_anchors, bool), jnp.zeros(n_gt, bool), jnp.zeros(n_anchors, jnp.int32))
    taken, _, match = lax.fori_loop(0, n_gt, round_, start)
    return taken, match


def _multibox_target_one(anchors, labels, cls_pred, *, overlap_threshold, ignore_label, negative_mining_ratio,
                         negative_mining_thresh, variances):
    n_anchors = anchors.shape[0]
    is_pad = labels[:, 0] == -1
    n_valid = jnp.where(is_pad.any(), jnp.argmax(is_pad), labels.shape[0])  # labels end at the first -1
    valid = jnp.arange(labels.shape[0]) < n_valid
    iou = _pairwise_iou(anchors, labels[:, 1:5])
    positive, match = _multibox_match(iou, valid)
    best_iou = jnp.max(jnp.where(valid[None, :], iou, -jnp.inf), axis=1)
    best_gt = jnp.argmax(jnp.where(valid[None, :], iou, -jnp.inf), axis=1).astype(jnp.int32)
    if overlap_threshold > 0:  # anchors overlapping a ground truth enough are positive too
        extra = ~positive & (best_iou > overlap_threshold)
        match = jnp.where(extra, best_gt, match)
        positive = positive | extra
    n_pos = jnp.sum(positive)
    if negative_mining_ratio > 0:  # the negatives the classifier finds least like background
        n_neg = jnp.minimum(jnp.floor(n_pos * negative_mining_ratio).astype(jnp.int32), n_anchors - n_pos)
        candidate = ~positive & (best_iou < negative_mining_thresh)
        background = jax.nn.softmax(cls_pred.astype(jnp.float32), axis=0)[0]
        order = jnp.argsort(jnp.where(candidate, background, jnp.inf), stable=True)
        rank = jnp.zeros(n_anchors, jnp.int32).at[order].set(jnp.arange(n_anchors, dtype=jnp.int32))
        negative = candidate & (rank < n_neg)
    else:
        negative = ~positive
    gt = labels[match]
    a_center, a_size = _center_size(anchors)
    g_center, g_size = _center_size(gt[:, 1:5])
    encoded = jnp.concatenate([(g_center - a_center) / a_size, jnp.log(g_size / a_size)], axis=-1)
    encoded = encoded / jnp.asarray(variances, encoded.dtype)
    any_gt = n_valid > 0  # without ground truth every anchor is ignored
    positive, negative = positive & any_gt, negative & any_gt
    loc = jnp.where(positive[:, None], encoded, 0).reshape(-1)
    mask = jnp.broadcast_to(positive[:, None], (n_anchors, 4)).reshape(-1)
    cls = jnp.where(positive, gt[:, 0] + 1, jnp.where(negative, 0, ignore_label))
    return loc, mask, cls


@register('_contrib_MultiBoxTarget', inputs=('anchor', 'label', 'cls_pred'), num_outputs=3, npx=('multibox_target',),
          output_names=('loc_target', 'loc_mask', 'cls_target'),
          params=[P('overlap_threshold', 'float', 0.5), P('ignore_label', 'float', -1.0),
                  P('negative_mining_ratio', 'float', -1.0), P('negative_mining_thresh', 'float', 0.5),
                  P('minimum_negative_samples', 'int', 0), P('variances', 'floats', (0.1, 0.1, 0.2, 0.2))])
def multibox_target(anchor, label, cls_pred, *, overlap_threshold, ignore_label, negative_mining_ratio,
                    negative_mining_thresh, minimum_negative_samples, variances):
    """SSD training targets for anchors (1, A, 4), labels (B, L, 5+) [class, corner box] padded with
    -1 rows, and class scores (B, C, A): box regression targets and masks (B, A * 4), and class
    targets (B, A): ground-truth class + 1 for positives, 0 for negatives, ``ignore_label`` else.

    Positives: a greedy one-to-one matching of anchors to ground truths, then any anchor whose best
    IoU exceeds ``overlap_threshold``. With ``negative_mining_ratio`` > 0 only that many negatives per
    positive are kept, those under ``negative_mining_thresh`` IoU with the lowest background
    probability; otherwise every other anchor is negative. ``minimum_negative_samples`` is accepted
    and, as in MXNet 1.9.1's kernel, has no effect."""
    del minimum_negative_samples
    if anchor.ndim != 3 or anchor.shape[-1] != 4 or label.ndim != 3 or label.shape[-1] < 5 or cls_pred.ndim != 3 \
            or cls_pred.shape[0] != label.shape[0] or cls_pred.shape[2] != anchor.shape[1]:
        raise MXNetError('MultiBoxTarget: expected anchor (1, A, 4), label (B, L, 5+) and cls_pred (B, C, A); got '
                         'anchor %s label %s cls_pred %s' % (shape_str(anchor.shape), shape_str(label.shape),
                                                             shape_str(cls_pred.shape)))
    if len(variances) != 4:
        raise MXNetError('MultiBoxTarget: variances needs 4 values, got %s' % (variances,))
    anchor, label, cls_pred = (lax.stop_gradient(a) for a in (anchor, label, cls_pred))  # targets: no gradient
    one = functools.partial(_multibox_target_one, anchor[0], overlap_threshold=overlap_threshold,
                            ignore_label=ignore_label, negative_mining_ratio=negative_mining_ratio,
                            negative_mining_thresh=negative_mining_thresh, variances=variances)
    loc, mask, cls = jax.vmap(one)(label, cls_pred)
    dtype = anchor.dtype
    return loc.astype(dtype), mask.astype(dtype), cls.astype(dtype)


@register('_contrib_MultiBoxPrior', npx=('multibox_prior',),
          params=[P('sizes', 'floats', (1.0,)), P('ratios', 'floats', (1.0,)), P('clip', 'bool', False),
                  P('steps', 'floats', (-1.0, -1.0)), P('offsets', 'floats', (0.5, 0.5))])
def multibox_prior(data, *, sizes, ratios, clip, steps, offsets):
    """SSD anchor boxes (1, H * W * A, 4) in corner form, normalised to [0, 1], for the (N, C, H, W)
    feature map ``data``: at each position, every size with the first ratio, then the first size
    with each other ratio (A = len(sizes) + len(ratios) - 1)."""
    if data.ndim != 4:
        raise MXNetError('MultiBoxPrior: data must be (N, C, H, W), got %s' % shape_str(data.shape))
    height, width = data.shape[2:]
    step_y = steps[0] if steps[0] > 0 else 1.0 / height
    step_x = steps[1] if steps[1] > 0 else 1.0 / width
    shapes = [(s, ratios[0]) for s in sizes] + [(sizes[0], r) for r in ratios[1:]]
    half_w = np.asarray([s * height / width * np.sqrt(r) / 2 for s, r in shapes], np.float32)
    half_h = np.asarray([s / np.sqrt(r) / 2 for s, r in shapes], np.float32)
    cy = (jnp.arange(height, dtype=jnp.float32) + offsets[0]) * step_y
    cx = (jnp.arange(width, dtype=jnp.float32) + offsets[1]) * step_x
    cy, cx = cy[:, None, None], cx[None, :, None]
    boxes = jnp.stack(jnp.broadcast_arrays(cx - half_w, cy - half_h, cx + half_w, cy + half_h), axis=-1)
    if clip:
        boxes = jnp.clip(boxes, 0, 1)
    return boxes.reshape(1, -1, 4).astype(data.dtype)



def _multibox_decode(anchors, loc, variances, clip):
    """Corner boxes of SSD's predicted offsets ``loc`` (A, 4) from corner ``anchors`` (A, 4)."""
    a_center, a_size = _center_size(anchors)
    v = jnp.asarray(variances, loc.dtype)
    center = loc[:, :2] * v[:2] * a_size + a_center
    half = jnp.exp(loc[:, 2:] * v[2:]) * a_size / 2
    boxes = jnp.concatenate([center - half, center + half], axis=-1)
    return jnp.clip(boxes, 0, 1) if clip else boxes


def _multibox_detection_one(cls_prob, loc, anchors, *, clip, threshold, background_id, nms_threshold,
                            force_suppress, variances, nms_topk):
    n_classes, n_anchors = cls_prob.shape
    foreground = np.arange(n_classes) != background_id
    scores = jnp.where(foreground[:, None], cls_prob, -1)
    cls = jnp.argmax(scores, axis=0)  # the first best class, as MXNet scans them
    score = jnp.max(scores, axis=0)
    valid = score >= threshold
    cls_id = (cls - (cls > background_id)).astype(cls_prob.dtype)  # the background's id removed
    rows = jnp.concatenate([cls_id[:, None], score[:, None],
                            _multibox_decode(anchors, loc.reshape(n_anchors, 4), variances, clip)], axis=1)
    position = jnp.arange(n_anchors)
    rows = rows[jnp.argsort(~valid, stable=True)]  # the valid rows first, in anchor order
    n_valid = jnp.sum(valid)
    if not 0 < nms_threshold <= 1:  # no NMS: MXNet leaves them unsorted
        return jnp.where((position < n_valid)[:, None], rows, -1)
    by_score = rows[jnp.argsort(jnp.where(position < n_valid, -rows[:, 1], jnp.inf), stable=True)]
    n_keep = n_valid if nms_topk <= 0 else jnp.minimum(n_valid, nms_topk)
    # beyond topk the valid rows keep their unsorted place and lose their class, as in MXNet's kernel
    rows = jnp.where((position < n_keep)[:, None], by_score, rows.at[:, 0].set(-1))
    boxes = rows[:, 2:]

    def visit(i, ids):  # a kept row removes the later rows it overlaps (of its class)
        overlap = _pairwise_iou(boxes[i][None], boxes)[0] >= nms_threshold
        same = True if force_suppress else ids == ids[i]
        remove = (ids[i] >= 0) & (position > i) & (ids >= 0) & same & overlap
        return jnp.where(remove, -1, ids)
    ids = lax.fori_loop(0, n_valid, visit, rows[:, 0])
    return jnp.where((position < n_valid)[:, None], rows.at[:, 0].set(ids), -1)


@register('_contrib_MultiBoxDetection', inputs=('cls_prob', 'loc_pred', 'anchor'), npx=('multibox_detection',),
          params=[P('clip', 'bool', True), P('threshold', 'float', 0.01), P('background_id', 'int', 0),
                  P('nms_threshold', 'float', 0.5), P('force_suppress', 'bool', False),
                  P('variances', 'floats', (0.1, 0.1, 0.2, 0.2)), P('nms_topk', 'int', -1)])
def multibox_detection(cls_prob, loc_pred, anchor, *, clip, threshold, background_id, nms_threshold,
                       force_suppress, variances, nms_topk):
    """SSD detections (B, A, 6) [class, score, xmin, ymin, xmax, ymax] from class probabilities
    (B, C, A), box offsets (B, A * 4) and anchors (1, A, 4), as MXNet 1.9.1's kernel lays them out.

    Each anchor takes its best class other than ``background_id`` (class ids above it move down by
    one; MXNet 1.9.1's kernel ignores the parameter and always takes class 0 for the background,
    docs/MIGRATING.md); anchors scoring under ``threshold`` are dropped. The kept rows, decoded with ``variances``
    (and clipped to [0, 1] with ``clip``), are sorted by score and the best ``nms_topk`` (all when
    not positive) go through NMS: a row overlapping a better kept row of its class (any class with
    ``force_suppress``) by IoU >= ``nms_threshold`` gets class -1 and keeps its values. Rows past the
    kept ones are -1; an ``nms_threshold`` outside (0, 1] skips sorting and NMS."""
    if cls_prob.ndim != 3 or loc_pred.ndim != 2 or anchor.ndim != 3 or anchor.shape[-1] != 4 \
            or loc_pred.shape != (cls_prob.shape[0], cls_prob.shape[2] * 4) or anchor.shape[1] != cls_prob.shape[2]:
        raise MXNetError('MultiBoxDetection: expected cls_prob (B, C, A), loc_pred (B, A * 4) and anchor (1, A, 4); '
                         'got cls_prob %s loc_pred %s anchor %s' % (shape_str(cls_prob.shape), shape_str(loc_pred.shape),
                                                                   shape_str(anchor.shape)))
    if len(variances) != 4:
        raise MXNetError('MultiBoxDetection: variances needs 4 values, got %s' % (variances,))
    one = functools.partial(_multibox_detection_one, anchors=anchor[0], clip=clip, threshold=threshold,
                            background_id=background_id, nms_threshold=nms_threshold,
                            force_suppress=force_suppress, variances=variances, nms_topk=nms_topk)
    return jax.vmap(one)(lax.stop_gradient(cls_prob), lax.stop_gradient(loc_pred)).astype(cls_prob.dtype)

# ---- region proposals (Faster R-CNN's RPN: src/operator/contrib/proposal, multi_proposal) -------------

_PROPOSAL_PARAMS = [P('rpn_pre_nms_top_n', 'int', 6000), P('rpn_post_nms_top_n', 'int', 300),
                    P('threshold', 'float', 0.7), P('rpn_min_size', 'int', 16),
                    P('scales', 'floats', (4.0, 8.0, 16.0, 32.0)), P('ratios', 'floats', (0.5, 1.0, 2.0)),
                    P('feature_stride', 'int', 16), P('output_score', 'bool', False), P('iou_loss', 'bool', False)]


def _score_visible(attrs):
    return 2 if attrs['output_score'] else 1


def _rpn_anchors(stride, ratios, scales):
    """The (A, 4) corner anchors of the cell at (0, 0), ratio-major: for each height/width ratio a
    box of about the cell's area with its sides rounded to whole pixels, times each scale, centred
    on the cell (sides counted as x2 - x1 + 1, as in the original Faster R-CNN code)."""
    area = float(stride * stride)
    centre = 0.5 * (stride - 1)
    anchors = []
    for ratio in ratios:
        base_w = np.floor(np.sqrt(np.floor(area / ratio)) + 0.5)
        base_h = np.floor(base_w * ratio + 0.5)
        for scale in scales:
            half_w, half_h = 0.5 * (base_w * scale - 1), 0.5 * (base_h * scale - 1)
            anchors.append([centre - half_w, centre - half_h, centre + half_w, centre + half_h])
    return np.asarray(anchors, np.float32)


def _rpn_nms(boxes, threshold, limit):
    """Greedy NMS over ``boxes`` (N, 4) sorted best first, sides counted x2 - x1 + 1: a box whose
    IoU with a kept better box is above ``threshold`` is dropped; stops after ``limit`` kept.
    Returns the kept indices (``limit``,; the first ``count`` are set) and ``count``.

    Each step jumps to the next box still alive, so the loop runs once per kept box."""
    n = boxes.shape[0]
    x1, y1, x2, y2 = (boxes[:, k] for k in range(4))
    area = (x2 - x1 + 1) * (y2 - y1 + 1)
    position = jnp.arange(n)

    def keep_one(state):
        i, count, alive, keep = state
        width = jnp.maximum(0.0, jnp.minimum(x2[i], x2) - jnp.maximum(x1[i], x1) + 1)
        height = jnp.maximum(0.0, jnp.minimum(y2[i], y2) - jnp.maximum(y1[i], y1) + 1)
        inter = width * height
        overlap = inter / (area[i] + area - inter)
        alive = alive & (position > i) & ~(overlap > threshold)
        following = jnp.where(jnp.any(alive), jnp.argmax(alive), n).astype(jnp.int32)
        return following, count + 1, alive, keep.at[count].set(i)

    def more(state):
        i, count = state[:2]
        return (i < n) & (count < limit)

    start = (jnp.int32(0), jnp.int32(0), jnp.ones(n, bool), jnp.zeros(limit, jnp.int32))
    _, count, _, keep = lax.while_loop(more, keep_one, start)
    return keep, count


def _proposals_one(scores, deltas, im_info, *, anchors, stride, pre_n, nms_n, out_n, threshold, min_size,
                   iou_loss):
    """The RPN proposals of one image: foreground ``scores`` (A, H, W), box ``deltas`` (4A, H, W)
    and ``im_info`` (height, width, scale) -> (out_n, 4) boxes and (out_n,) scores."""
    num_anchors, height, width = scores.shape
    shift_x = jnp.arange(width, dtype=jnp.float32)[None, :, None] * stride
    shift_y = jnp.arange(height, dtype=jnp.float32)[:, None, None] * stride
    boxes = anchors + jnp.stack(jnp.broadcast_arrays(shift_x, shift_y, shift_x, shift_y), axis=-1)  # (H, W, A, 4)
    deltas = deltas.reshape(num_anchors, 4, height, width).transpose(2, 3, 0, 1)
    score = scores.transpose(1, 2, 0)
    if iou_loss:  # the deltas move the corners
        boxes = boxes + deltas
    else:  # the deltas move the centre (in sides) and scale the sides (in logs)
        size = boxes[..., 2:] - boxes[..., :2] + 1
        centre = boxes[..., :2] + 0.5 * (size - 1) + deltas[..., :2] * size
        half = 0.5 * (jnp.exp(deltas[..., 2:]) * size - 1)
        boxes = jnp.concatenate([centre - half, centre + half], axis=-1)
    im_height, im_width, im_scale = im_info[0], im_info[1], im_info[2]
    boxes = jnp.maximum(jnp.minimum(boxes, jnp.stack([im_width, im_height] * 2) - 1), 0)
    # cells past the image (padding of a batch of different sizes) propose nothing
    padded = ((jnp.arange(height)[:, None, None] >= jnp.trunc(im_height / stride))
              | (jnp.arange(width)[None, :, None] >= jnp.trunc(im_width / stride)))
    smallest = min_size * im_scale
    small = jnp.any(boxes[..., 2:] - boxes[..., :2] + 1 < smallest, axis=-1)
    boxes = jnp.where(small[..., None], boxes + jnp.stack([-smallest, -smallest, smallest, smallest]) / 2, boxes)
    score = jnp.where(padded | small, -1.0, score).reshape(-1)
    order = jnp.argsort(-score, stable=True)[:pre_n]
    boxes, score = boxes.reshape(-1, 4)[order], score[order]
    keep, count = _rpn_nms(boxes, threshold, nms_n)
    picked = keep[jnp.arange(out_n) % count]  # fewer survivors than outputs: they repeat in turn
    return boxes[picked], score[picked]


def _proposals(op, cls_prob, bbox_pred, im_info, *, rpn_pre_nms_top_n, rpn_post_nms_top_n, threshold,
               rpn_min_size, scales, ratios, feature_stride, iou_loss):
    """(B * rpn_post_nms_top_n, 5) rows [image index, x1, y1, x2, y2] and their (.., 1) scores."""
    if cls_prob.ndim != 4 or cls_prob.shape[1] % 2:
        raise MXNetError('%s: cls_prob must be (N, 2 * num_anchors, H, W), got %s' % (op, shape_str(cls_prob.shape)))
    batch, channels, height, width = cls_prob.shape
    num_anchors = channels // 2
    if num_anchors != len(scales) * len(ratios):
        raise MXNetError('%s: cls_prob has %d anchors per cell (%s), but scales %s and ratios %s make %d'
                         % (op, num_anchors, shape_str(cls_prob.shape), tuple(scales), tuple(ratios),
                            len(scales) * len(ratios)))
    for name, arr, shape in (('bbox_pred', bbox_pred, (batch, 4 * num_anchors, height, width)),
                             ('im_info', im_info, (batch, 3))):
        if arr.shape != shape:
            raise MXNetError('%s: %s must be %s for cls_prob %s, got %s'
                             % (op, name, shape_str(shape), shape_str(cls_prob.shape), shape_str(arr.shape)))
    count = num_anchors * height * width
    pre_n = min(rpn_pre_nms_top_n if rpn_pre_nms_top_n > 0 else count, count)
    one = functools.partial(_proposals_one, anchors=jnp.asarray(_rpn_anchors(feature_stride, ratios, scales)),
                            stride=feature_stride, pre_n=pre_n, nms_n=min(rpn_post_nms_top_n, pre_n),
                            out_n=rpn_post_nms_top_n, threshold=threshold, min_size=rpn_min_size, iou_loss=iou_loss)
    # the proposals are not differentiable: MXNet's gradient is zero for every input
    inputs = [lax.stop_gradient(a.astype(jnp.float32)) for a in (cls_prob, bbox_pred, im_info)]
    boxes, scores = jax.vmap(one)(inputs[0][:, num_anchors:], inputs[1], inputs[2])
    image = jnp.broadcast_to(jnp.arange(batch, dtype=jnp.float32)[:, None, None], boxes.shape[:2] + (1,))
    rois = jnp.concatenate([image, boxes], axis=-1).reshape(-1, 5)
    return rois.astype(cls_prob.dtype), scores.reshape(-1, 1).astype(cls_prob.dtype)


@register('_contrib_MultiProposal', inputs=('cls_prob', 'bbox_pred', 'im_info'), num_outputs=2,
          num_visible_outputs=_score_visible, output_names=('output', 'score'), params=_PROPOSAL_PARAMS)
def multi_proposal(cls_prob, bbox_pred, im_info, *, output_score, **params):
    """Region proposals of a batch for Faster R-CNN: anchors of ``scales`` x ``ratios`` at every
    cell of the (N, 2A, H, W) maps, moved by ``bbox_pred`` (N, 4A, H, W) and clipped to each image
    (``im_info`` rows: height, width, scale); boxes smaller than ``rpn_min_size`` (scaled) or on
    cells past the image score -1. Of the ``rpn_pre_nms_top_n`` best (by the foreground half of
    ``cls_prob``), greedy NMS at ``threshold`` keeps up to ``rpn_post_nms_top_n`` per image
    (repeated in turn when fewer survive). Outputs (N * rpn_post_nms_top_n, 5) rows
    [image index, x1, y1, x2, y2] and their scores (N * rpn_post_nms_top_n, 1)."""
    return _proposals('MultiProposal', cls_prob, bbox_pred, im_info, **params)


@register('_contrib_Proposal', inputs=('cls_prob', 'bbox_pred', 'im_info'), num_outputs=2,
          num_visible_outputs=_score_visible, output_names=('output', 'score'), params=_PROPOSAL_PARAMS)
def proposal(cls_prob, bbox_pred, im_info, *, output_score, **params):
    """MultiProposal of one image (``cls_prob`` (1, 2A, H, W)), as MXNet's Proposal."""
    if cls_prob.ndim == 4 and cls_prob.shape[0] != 1:
        raise MXNetError('Proposal: takes one image (cls_prob (1, 2A, H, W)), got %s; MultiProposal takes a batch'
                         % shape_str(cls_prob.shape))
    return _proposals('Proposal', cls_prob, bbox_pred, im_info, **params)


# ---- resampling of NCHW maps ------------------------------------------------------------------

# Sizes made even or odd by one step down or up (a size of that parity stays).
_PARITY_MODES = {
    'to_even_down': lambda n: n - n % 2, 'to_even_up': lambda n: n + n % 2,
    'to_odd_down': lambda n: n - (1 - n % 2), 'to_odd_up': lambda n: n + (1 - n % 2),
}


def _resize_size(op, mode, in_hw, height, width, scale_height, scale_width, like):
    if mode == 'like':
        if like is None:
            raise MXNetError('%s: mode="like" needs the like input' % op)
        return like.shape[2:4]
    if mode in _PARITY_MODES:
        out_h, out_w = (_PARITY_MODES[mode](n) for n in in_hw)
    elif mode == 'odd_scale':  # an odd size keeps its corners on the grid: (n - 1) * scale + 1
        if scale_height is None or scale_width is None:
            raise MXNetError("%s: mode='odd_scale' needs scale_height and scale_width" % op)
        out_h, out_w = (int(n * s) if n % 2 == 0 else int((n - 1) * s) + 1
                        for n, s in zip(in_hw, (scale_height, scale_width)))
    elif mode == 'size':
        out_h = int(in_hw[0] * scale_height) if scale_height is not None else height
        out_w = int(in_hw[1] * scale_width) if scale_width is not None else width
    else:
        raise MXNetError("%s: mode must be one of size, like, odd_scale, %s; got %r"
                         % (op, ', '.join(_PARITY_MODES), mode))
    if out_h < 1 or out_w < 1:
        raise MXNetError('%s: output size (%d, %d) must be positive' % (op, out_h, out_w))
    return out_h, out_w


def _linear_weights(n_in, n_out, align_corners):
    """(n_out, n_in) matrix interpolating linearly along one axis, with MXNet's sampling points."""
    dst = np.arange(n_out, dtype=np.float64)
    if align_corners:
        src = dst * ((n_in - 1) / (n_out - 1)) if n_out > 1 else np.zeros(n_out)
    else:
        src = np.maximum((dst + 0.5) * (n_in / n_out) - 0.5, 0)
    lo = np.minimum(np.floor(src).astype(np.int64), n_in - 1)
    hi = np.minimum(lo + 1, n_in - 1)
    frac = src - lo
    weights = np.zeros((n_out, n_in))
    np.add.at(weights, (np.arange(n_out), lo), 1 - frac)
    np.add.at(weights, (np.arange(n_out), hi), frac)
    return weights


def _resize_inputs(attrs):
    if attrs is None or attrs.get('mode') == 'like':
        return ('data', 'like')
    return ('data',)


@register('_contrib_BilinearResize2D', inputs=_resize_inputs,
          params=[P('height', 'int', 1), P('width', 'int', 1), P('scale_height', 'float', None, optional=True),
                  P('scale_width', 'float', None, optional=True), P('mode', 'str', 'size'), P('align_corners', 'bool', True)])
def bilinear_resize_2d(data, like=None, *, height, width, scale_height, scale_width, mode, align_corners):
    """Bilinear resampling of an NCHW map to (height, width), to ``scale_*`` times its size, or to
    the spatial size of ``like`` (mode='like')."""
    if data.ndim != 4:
        raise MXNetError('BilinearResize2D: data must be NCHW, got %s' % shape_str(data.shape))
    float_only('BilinearResize2D', data=data)
    in_h, in_w = data.shape[2:]
    out_h, out_w = _resize_size('BilinearResize2D', mode, (in_h, in_w), height, width,
                                scale_height, scale_width, like)
    rows = jnp.asarray(_linear_weights(in_h, out_h, align_corners), data.dtype)
    cols = jnp.asarray(_linear_weights(in_w, out_w, align_corners), data.dtype)
    return jnp.einsum('oh,nchw,pw->ncop', rows, data, cols)


def _average_bins(n_in, n_out):
    """(n_out, n_in) matrix averaging MXNet's adaptive bins [floor(i*n/o), ceil((i+1)*n/o))."""
    weights = np.zeros((n_out, n_in))
    for i in range(n_out):
        start, end = (i * n_in) // n_out, -((-(i + 1) * n_in) // n_out)
        weights[i, start:end] = 1.0 / (end - start)
    return weights


@register('_contrib_AdaptiveAvgPooling2D', params=[P('output_size', 'shape', ())])
def adaptive_avg_pooling_2d(data, *, output_size):
    """Average pooling of an NCHW map onto an ``output_size`` grid (one int: square; empty: 1x1)."""
    if data.ndim != 4:
        raise MXNetError('AdaptiveAvgPooling2D: data must be NCHW, got %s' % shape_str(data.shape))
    float_only('AdaptiveAvgPooling2D', data=data)
    if len(output_size) > 2 or min(output_size, default=0) < 0:  # a 0 gives an empty map, as in MXNet
        raise MXNetError('AdaptiveAvgPooling2D: output_size must be one or two non-negative ints, got %s'
                         % (output_size,))
    out_h, out_w = {0: (1, 1), 1: tuple(output_size) * 2, 2: tuple(output_size)}[len(output_size)]
    rows = jnp.asarray(_average_bins(data.shape[2], out_h), data.dtype)
    cols = jnp.asarray(_average_bins(data.shape[3], out_w), data.dtype)
    return jnp.einsum('oh,nchw,pw->ncop', rows, data, cols)


# ---- pooling of regions of interest (Fast/Mask R-CNN heads) --------------------------------------

def _check_rois(op, data, rois, pooled_size):
    if data.ndim != 4:
        raise MXNetError('%s: data must be NCHW, got %s' % (op, shape_str(data.shape)))
    if rois.ndim != 2 or rois.shape[1] != 5:
        raise MXNetError('%s: rois must be (num_rois, 5) rows of [batch_index, x1, y1, x2, y2], got %s'
                         % (op, shape_str(rois.shape)))
    if len(pooled_size) != 2 or min(pooled_size) < 1:
        raise MXNetError('%s: pooled_size must be two positive ints (height, width), got %s' % (op, pooled_size))


def _round_half_away(x):
    """C's round(): halves away from zero (jnp.round rounds them to even)."""
    return jnp.sign(x) * jnp.floor(jnp.abs(x) + 0.5)


def _edge_masks(lo, hi, length):
    """(R, n_bins, length) masks of the pixels in [lo, hi) of each bin, clipped to the map."""
    lo, hi = jnp.clip(lo, 0, length), jnp.clip(hi, 0, length)
    pixels = jnp.arange(length, dtype=lo.dtype)
    return (pixels >= lo[..., None]) & (pixels < hi[..., None])


def _bin_masks(start, size, n_bins, length):
    """(R, n_bins, length) masks of the pixels of each ROIPooling bin along one axis (``start``
    a whole pixel)."""
    bin_size = size / n_bins
    k = jnp.arange(n_bins, dtype=start.dtype)
    return _edge_masks(jnp.floor(k * bin_size[:, None]) + start[:, None],
                       jnp.ceil((k + 1) * bin_size[:, None]) + start[:, None], length)


@register('ROIPooling', inputs=('data', 'rois'), mxnet_outputs=2, npx=('roi_pooling',),
          params=[P('pooled_size', 'shape'), P('spatial_scale', 'float')])
def roi_pooling(data, rois, *, pooled_size, spatial_scale):
    """Max pooling of each region of interest onto a pooled_size grid (Fast R-CNN).

    ``rois`` rows are [batch_index, x1, y1, x2, y2] in image coordinates; times
    ``spatial_scale`` and rounded they give the region on ``data``'s pixels (both ends
    included). An empty bin, or a row whose batch index is out of range, gives 0."""
    float_only('ROIPooling', data=data)
    _check_rois('ROIPooling', data, rois, pooled_size)
    n, _, height, width = data.shape
    rois = lax.stop_gradient(rois).astype(jnp.float32)
    batch = rois[:, 0].astype(jnp.int32)
    x1, y1, x2, y2 = (_round_half_away(rois[:, i] * np.float32(spatial_scale)) for i in range(1, 5))
    rows = _bin_masks(y1, jnp.maximum(y2 - y1 + 1, 1), pooled_size[0], height)  # (R, PH, H)
    cols = _bin_masks(x1, jnp.maximum(x2 - x1 + 1, 1), pooled_size[1], width)  # (R, PW, W)
    regions = data[jnp.clip(batch, 0, n - 1)]  # (R, C, H, W)
    low = jnp.asarray(-jnp.inf if jnp.issubdtype(data.dtype, jnp.floating) else jnp.iinfo(data.dtype).min,
                      data.dtype)
    # max over each bin's columns, then over its rows: (R, C, H, PW), then (R, C, PH, PW)
    by_col = jnp.max(jnp.where(cols[:, None, None, :, :], regions[:, :, :, None, :], low), axis=-1)
    pooled = jnp.max(jnp.where(rows[:, None, :, :, None], by_col[:, :, None, :, :], low), axis=3)
    valid = (batch >= 0) & (batch < n)
    empty = ~(rows.any(-1)[:, :, None] & cols.any(-1)[:, None, :])  # (R, PH, PW)
    return jnp.where(valid[:, None, None, None] & ~empty[:, None], pooled, jnp.zeros((), data.dtype))


@register('_contrib_PSROIPooling', inputs=('data', 'rois'),
          params=[P('spatial_scale', 'float'), P('output_dim', 'int'), P('pooled_size', 'int'),
                  P('group_size', 'int', 0)])
def psroi_pooling(data, rois, *, spatial_scale, output_dim, pooled_size, group_size):
    """Position-sensitive average pooling of each region of interest (R-FCN): bin (i, j) of
    output channel c averages input channel (c * group_size + gi) * group_size + gj, where
    (gi, gj) is the bin's cell on a group_size grid (group_size 0: pooled_size). ``rois`` rows
    are [batch_index, x1, y1, x2, y2] in image coordinates; empty bins give 0."""
    op = 'PSROIPooling'
    group = group_size or pooled_size
    _check_rois(op, data, rois, (pooled_size, pooled_size))
    n, channels, height, width = data.shape
    if channels < output_dim * group * group:  # channels past those are not read, as in MXNet
        raise MXNetError('%s: data has %d channels (%s), at least output_dim * group_size**2 = %d * %d**2 expected'
                         % (op, channels, shape_str(data.shape), output_dim, group))
    dtype = data.dtype if jnp.issubdtype(data.dtype, jnp.floating) else jnp.float32
    rois = lax.stop_gradient(rois).astype(dtype)
    x1, y1 = (_round_half_away(rois[:, i]) * spatial_scale for i in (1, 2))
    x2, y2 = ((_round_half_away(rois[:, i]) + 1) * spatial_scale for i in (3, 4))
    k = jnp.arange(pooled_size, dtype=dtype)
    masks = []
    for start, end, length in ((y1, y2, height), (x1, x2, width)):
        size = jnp.maximum(end - start, 0.1)[:, None] / pooled_size  # regions of nothing keep a tenth of a pixel
        masks.append(_edge_masks(jnp.floor(k * size + start[:, None]), jnp.ceil((k + 1) * size + start[:, None]),
                                 length).astype(dtype))
    rows, cols = masks
    batch = jnp.clip(rois[:, 0].astype(jnp.int32), 0, n - 1)
    sums = jnp.einsum('rph,rchw,rqw->rcpq', rows, data[batch].astype(dtype), cols)
    area = rows.sum(-1)[:, :, None] * cols.sum(-1)[:, None, :]  # (R, PH, PW)
    cell = np.minimum(np.arange(pooled_size) * group // pooled_size, group - 1)
    channel = (np.arange(output_dim)[:, None, None] * group + cell[:, None]) * group + cell[None, :]
    picked = sums[:, channel, np.arange(pooled_size)[:, None], np.arange(pooled_size)[None, :]]
    return jnp.where(area[:, None] > 0, picked / jnp.maximum(area, 1)[:, None], 0).astype(data.dtype)

def _sample_weights(start, bin_size, grid, n_bins, length, max_samples):
    """(R, n_bins, length): for each ROIAlign bin along one axis, the summed bilinear weights of
    its ``grid`` sample points on the pixels (sample k at start + (bin + (k + .5) / grid) * bin_size).

    Samples outside [-1, length] weigh nothing, so only the first ``max_samples`` samples from the
    first one inside are visited: the points are over 0.5 apart when a bin has more than one,
    so no more than 2 * length + 3 of them fall inside."""
    dtype = start.dtype
    step = bin_size / grid  # (R,)
    first = start[:, None] + jnp.arange(n_bins, dtype=dtype) * bin_size[:, None]  # (R, bins)
    skip = jnp.clip(jnp.ceil((-1 - first) / step[:, None] - 0.5), 0, None)  # samples before -1
    k = skip[..., None] + jnp.arange(max_samples, dtype=dtype)  # (R, bins, S)
    y = first[..., None] + (k + 0.5) * step[:, None, None]
    inside = (k < grid[:, None, None]) & (y >= -1) & (y <= length)
    y = jnp.maximum(y, 0)
    low = jnp.floor(y)
    clamped = low >= length - 1
    low = jnp.where(clamped, length - 1, low)
    frac = jnp.where(clamped, 0, y - low)
    pixels = jnp.arange(length, dtype=dtype)
    weight = (jnp.where(pixels == low[..., None], 1 - frac[..., None], 0)
              + jnp.where(pixels == low[..., None] + 1, frac[..., None], 0))
    return jnp.sum(jnp.where(inside[..., None], weight, 0), axis=2)


@register('_contrib_ROIAlign', inputs=('data', 'rois'),
          params=[P('pooled_size', 'shape'), P('spatial_scale', 'float'), P('sample_ratio', 'int', -1),
                  P('position_sensitive', 'bool', False), P('aligned', 'bool', False)])
def roi_align(data, rois, *, pooled_size, spatial_scale, sample_ratio, position_sensitive, aligned):
    """Average of bilinear samples of each region of interest per bin of a pooled_size grid (Mask R-CNN).

    ``rois`` rows are [batch_index, x1, y1, x2, y2] in image coordinates, scaled by
    ``spatial_scale`` (and moved half a pixel with ``aligned``). Each bin averages
    sample_ratio x sample_ratio points, or ceil(bin size) per axis when sample_ratio <= 0.
    ``position_sensitive`` (R-FCN) pools bin (i, j) of output channel c from input channel
    (c * PH + i) * PW + j. The rois receive no gradient."""
    float_only('ROIAlign', data=data)
    op = 'ROIAlign'
    _check_rois(op, data, rois, pooled_size)
    n, channels, height, width = data.shape
    ph, pw = pooled_size
    if position_sensitive and channels % (ph * pw):
        raise MXNetError('%s: position_sensitive needs channels (%d, data %s) divisible by the %d bins of '
                         'pooled_size %s' % (op, channels, shape_str(data.shape), ph * pw, pooled_size))
    dtype = data.dtype if jnp.issubdtype(data.dtype, jnp.floating) else jnp.float32
    rois = lax.stop_gradient(rois).astype(dtype)
    offset = 0.5 if aligned else 0.0
    x1, y1, x2, y2 = (rois[:, i] * spatial_scale - offset for i in range(1, 5))
    roi_h, roi_w = y2 - y1, x2 - x1
    if not aligned:  # regions of under a pixel count as one pixel
        roi_h, roi_w = jnp.maximum(roi_h, 1), jnp.maximum(roi_w, 1)
    grids, weights = [], []
    for start, size, bins, length in ((y1, roi_h, ph, height), (x1, roi_w, pw, width)):
        if sample_ratio > 0:
            grid, max_samples = jnp.full_like(size, sample_ratio), sample_ratio
        else:
            grid, max_samples = jnp.ceil(size / bins), 2 * length + 3
        max_samples = min(max_samples, 2 * length + 3)
        grids.append(grid)
        weights.append(_sample_weights(start, size / bins, grid, bins, length, max_samples))
    count = jnp.maximum(grids[0] * grids[1], 1)  # (R,)
    batch = jnp.clip(rois[:, 0].astype(jnp.int32), 0, n - 1)
    out = jnp.einsum('rph,rchw,rqw->rcpq', weights[0], data[batch].astype(dtype), weights[1])
    out = out / count[:, None, None, None]
    if position_sensitive:  # output channel c, bin (i, j) <- input channel (c * PH + i) * PW + j
        out = out.reshape(out.shape[0], channels // (ph * pw), ph * pw, ph * pw)
        out = jnp.diagonal(out, axis1=2, axis2=3).reshape(out.shape[0], -1, ph, pw)
    return out.astype(data.dtype)


def _rotated_bilinear(image, y, x):
    """image (R, C, H, W) sampled at y, x (R, P) -> (R, C, P): 0 outside [-1, H] x [-1, W],
    coordinates below 0 read row or column 0 and those past the last read the last (ROIAlign's)."""
    r, c, h, w = image.shape
    outside = (y < -1) | (y > h) | (x < -1) | (x > w)
    y, x = jnp.maximum(y, 0), jnp.maximum(x, 0)
    y = jnp.where(jnp.floor(y) >= h - 1, h - 1, y)
    x = jnp.where(jnp.floor(x) >= w - 1, w - 1, x)
    y0, x0 = jnp.floor(y), jnp.floor(x)
    ly, lx = y - y0, x - x0
    flat = image.reshape(r, c, h * w)
    out = 0
    for yy, wy in ((y0, 1 - ly), (jnp.minimum(y0 + 1, h - 1), ly)):
        for xx, wx in ((x0, 1 - lx), (jnp.minimum(x0 + 1, w - 1), lx)):
            index = (yy * w + xx).astype(jnp.int32)
            out = out + (wy * wx)[:, None] * jnp.take_along_axis(flat, index[:, None, :], axis=2)
    return jnp.where(outside[:, None], 0, out)


@register('_contrib_RROIAlign', inputs=('data', 'rois'),
          params=[P('pooled_size', 'shape'), P('spatial_scale', 'float'), P('sampling_ratio', 'int', -1)])
def rroi_align(data, rois, *, pooled_size, spatial_scale, sampling_ratio):
    """ROIAlign over rotated regions: ``rois`` rows are [batch_index, center_x, center_y, width,
    height, angle in degrees (counter-clockwise)], scaled by ``spatial_scale``. Each bin of the
    pooled_size grid averages sampling_ratio x sampling_ratio bilinear samples, or
    ceil(bin size) per axis when sampling_ratio <= 0. Not differentiable (as in MXNet)."""
    op = 'RROIAlign'
    if data.ndim != 4:
        raise MXNetError('%s: data must be NCHW, got %s' % (op, shape_str(data.shape)))
    if rois.ndim != 2 or rois.shape[1] != 6:
        raise MXNetError('%s: rois must be (num_rois, 6) rows of [batch_index, center_x, center_y, width, height, '
                         'angle], got %s' % (op, shape_str(rois.shape)))
    if len(pooled_size) != 2 or min(pooled_size) < 1:
        raise MXNetError('%s: pooled_size must be two positive ints (height, width), got %s' % (op, pooled_size))
    n = data.shape[0]
    ph, pw = pooled_size
    dtype = data.dtype if jnp.issubdtype(data.dtype, jnp.floating) else jnp.float32
    rois = lax.stop_gradient(rois).astype(dtype)
    image = lax.stop_gradient(data).astype(dtype)[jnp.clip(rois[:, 0].astype(jnp.int32), 0, n - 1)]
    cx, cy, roi_w, roi_h = (rois[:, i] * spatial_scale for i in range(1, 5))
    theta = rois[:, 5] * (np.pi / 180.0)
    roi_w, roi_h = jnp.maximum(roi_w, 1), jnp.maximum(roi_h, 1)
    bin_h, bin_w = roi_h / ph, roi_w / pw
    if sampling_ratio > 0:
        grid_h = grid_w = jnp.full_like(roi_h, sampling_ratio)
    else:
        grid_h, grid_w = jnp.ceil(bin_h), jnp.ceil(bin_w)
    cos, sin = jnp.cos(theta)[:, None], jnp.sin(theta)[:, None]
    # the bins' corners in the region's own frame, centred on it: (R, PH*PW)
    bin_y = (-roi_h / 2)[:, None] + jnp.repeat(jnp.arange(ph, dtype=dtype), pw)[None] * bin_h[:, None]
    bin_x = (-roi_w / 2)[:, None] + jnp.tile(jnp.arange(pw, dtype=dtype), ph)[None] * bin_w[:, None]
    max_w = jnp.max(grid_w).astype(jnp.int32)

    def add_sample(k, total):   # sample (iy, ix) = divmod(k, max_w) of every bin, where the region has it
        iy, ix = (k // max_w).astype(dtype), (k % max_w).astype(dtype)
        yy = bin_y + ((iy + 0.5) * bin_h / grid_h)[:, None]
        xx = bin_x + ((ix + 0.5) * bin_w / grid_w)[:, None]
        value = _rotated_bilinear(image, yy * cos - xx * sin + cy[:, None], xx * cos + yy * sin + cx[:, None])
        used = (iy < grid_h) & (ix < grid_w)
        return total + jnp.where(used[:, None, None], value, 0)

    steps = jnp.max(grid_h).astype(jnp.int32) * max_w
    total = lax.fori_loop(0, steps, add_sample, jnp.zeros(image.shape[:2] + (ph * pw,), dtype))
    out = total / (grid_h * grid_w)[:, None, None]
    return out.reshape(out.shape[:2] + (ph, pw)).astype(data.dtype)


# ---- spatial transformer networks: sampling grids and the bilinear sampler --------------------------

def _affine_grid(op, affine, target_shape):
    """(N, 2, H, W) source coordinates in [-1, 1] (x then y) of an (N, 6) affine transform
    applied to the target grid (x and y evenly from -1 to 1)."""
    if affine.ndim != 2 or affine.shape[1] != 6:
        raise MXNetError('%s: the affine transform must be (batch, 6), got %s' % (op, shape_str(affine.shape)))
    if len(target_shape) != 2 or min(target_shape) < 1:
        raise MXNetError('%s: target_shape must be (height, width), got %s' % (op, target_shape))
    height, width = target_shape
    ys, xs = jnp.meshgrid(jnp.linspace(-1, 1, height, dtype=affine.dtype),
                          jnp.linspace(-1, 1, width, dtype=affine.dtype), indexing='ij')
    target = jnp.stack([xs.reshape(-1), ys.reshape(-1), jnp.ones(height * width, affine.dtype)])  # (3, H*W)
    return jnp.matmul(affine.reshape(-1, 2, 3), target).reshape(-1, 2, height, width)


@register('GridGenerator', mxnet_outputs=2,
          params=[P('transform_type', 'str'), P('target_shape', 'shape', (0, 0))])
def grid_generator(data, *, transform_type, target_shape):
    """The sampling grid of BilinearSampler, (N, 2, H, W) with x then y in [-1, 1]: an 'affine'
    transform (N, 6) of the target grid, or a 'warp' adding the pixel offsets ``data`` (N, 2, H, W)."""
    float32_only('GridGenerator', data)
    op = 'GridGenerator'
    if transform_type == 'affine':
        return _affine_grid(op, data, target_shape)
    if transform_type != 'warp':
        raise MXNetError("%s: transform_type must be 'affine' or 'warp', got %r" % (op, transform_type))
    if data.ndim != 4 or data.shape[1] != 2:
        raise MXNetError('%s: a warp flow must be (batch, 2, height, width), got %s' % (op, shape_str(data.shape)))
    height, width = data.shape[2:]
    ys, xs = jnp.meshgrid(jnp.arange(height, dtype=data.dtype), jnp.arange(width, dtype=data.dtype), indexing='ij')
    x = (data[:, 0] + xs) / ((width - 1) / 2) - 1
    y = (data[:, 1] + ys) / ((height - 1) / 2) - 1
    return jnp.stack([x, y], axis=1)


def _sample_bilinear(data, grid):
    """data (N, C, H, W) read at the grid's (N, 2, h, w) points in [-1, 1], bilinearly; the
    neighbours outside the map count as zeros."""
    height, width = data.shape[2:]
    x = (grid[:, 0] + 1) * (width - 1) / 2  # (N, h, w) in pixels
    y = (grid[:, 1] + 1) * (height - 1) / 2
    x0, y0 = jnp.floor(x), jnp.floor(y)
    out = 0
    batch = jnp.arange(data.shape[0])[:, None, None]
    for dy, dx in ((0, 0), (0, 1), (1, 0), (1, 1)):
        xi, yi = x0 + dx, y0 + dy
        weight = (1 - jnp.abs(x - xi)) * (1 - jnp.abs(y - yi))
        inside = (xi >= 0) & (xi <= width - 1) & (yi >= 0) & (yi <= height - 1)
        rows = jnp.clip(yi, 0, height - 1).astype(jnp.int32)
        cols = jnp.clip(xi, 0, width - 1).astype(jnp.int32)
        values = jnp.moveaxis(data[batch, :, rows, cols], -1, 1)  # (N, C, h, w)
        out = out + values * jnp.where(inside, weight, 0)[:, None]
    return out.astype(data.dtype)


def _check_sampler(op, data, grid):
    if data.ndim != 4 or grid.ndim != 4 or grid.shape[1] != 2 or grid.shape[0] != data.shape[0]:
        raise MXNetError('%s: data must be (N, C, H, W) and grid (N, 2, h, w), got data %s and grid %s'
                         % (op, shape_str(data.shape), shape_str(grid.shape)))


@register('BilinearSampler', inputs=('data', 'grid'), mxnet_outputs=2,
          params=[P('cudnn_off', 'bool', None, optional=True)])
def bilinear_sampler(data, grid, *, cudnn_off):
    """``data`` (N, C, H, W) sampled bilinearly at ``grid`` (N, 2, h, w): x then y, -1 and 1 being
    the centres of the first and last pixels; points off the map read zeros. (N, C, h, w)."""
    float_only('BilinearSampler', data=data, grid=grid)
    _check_sampler('BilinearSampler', data, grid)
    return _sample_bilinear(data, grid)


@register('SpatialTransformer', inputs=('data', 'loc'), mxnet_outputs=3,
          params=[P('target_shape', 'shape', (0, 0)), P('transform_type', 'str'), P('sampler_type', 'str'),
                  P('cudnn_off', 'bool', None, optional=True)])
def spatial_transformer(data, loc, *, target_shape, transform_type, sampler_type, cudnn_off):
    """``data`` (N, C, H, W) resampled bilinearly onto a target_shape grid moved by the affine
    transforms ``loc`` (N, 6) (Jaderberg et al., 2015): (N, C, *target_shape)."""
    float_only('SpatialTransformer', data=data, loc=loc)
    op = 'SpatialTransformer'
    if transform_type != 'affine' or sampler_type != 'bilinear':
        raise MXNetError("%s: only transform_type='affine' with sampler_type='bilinear' exist, got %r and %r"
                         % (op, transform_type, sampler_type))
    grid = _affine_grid(op, loc, target_shape)
    _check_sampler(op, data, grid)
    return _sample_bilinear(data, grid)


# ---- Correlation (FlowNet's cost volume) ------------------------------------------------------------

@register('Correlation', inputs=('data1', 'data2'), mxnet_outputs=3,
          params=[P('kernel_size', 'int', 1), P('max_displacement', 'int', 1), P('stride1', 'int', 1),
                  P('stride2', 'int', 1), P('pad_size', 'int', 0), P('is_multiply', 'bool', True)])
def correlation(data1, data2, *, kernel_size, max_displacement, stride1, stride2, pad_size, is_multiply):
    """Matching costs of ``data1`` against ``data2`` moved by each displacement (dx, dy), both in
    -max_displacement..max_displacement by stride2: output channel (dy, dx) (row-major) holds, per
    position (taken every stride1 pixels), the product (or with ``is_multiply=False`` the absolute
    difference) of the two maps summed over a kernel_size window and the channels, divided by
    kernel_size**2 * channels. Both maps are zero-padded by pad_size first."""
    float_only('Correlation', data1=data1, data2=data2)
    op = 'Correlation'
    if data1.ndim != 4 or data1.shape != data2.shape:
        raise MXNetError('%s: data1 and data2 must be NCHW maps of one shape, got %s and %s'
                         % (op, shape_str(data1.shape), shape_str(data2.shape)))
    if kernel_size < 1 or kernel_size % 2 == 0 or min(stride1, stride2) < 1 or max_displacement < 0 or pad_size < 0:
        raise MXNetError('%s: kernel_size must be odd and positive, strides positive, max_displacement and '
                         'pad_size non-negative (got %d, %d, %d, %d, %d)'
                         % (op, kernel_size, stride1, stride2, max_displacement, pad_size))
    pads = ((0, 0), (0, 0), (pad_size, pad_size), (pad_size, pad_size))
    first, second = jnp.pad(data1, pads), jnp.pad(data2, pads)
    border = max_displacement + (kernel_size - 1) // 2
    height, width = first.shape[2] - 2 * border, first.shape[3] - 2 * border
    if height < 1 or width < 1:
        raise MXNetError('%s: maps %s padded by %d are too small for max_displacement %d and kernel_size %d'
                         % (op, shape_str(data1.shape), pad_size, max_displacement, kernel_size))
    out_h, out_w = -(-height // stride1), -(-width // stride1)
    span_h, span_w = (out_h - 1) * stride1 + kernel_size, (out_w - 1) * stride1 + kernel_size
    start = max_displacement
    anchor = first[:, :, start:start + span_h, start:start + span_w]
    radius = max_displacement // stride2
    costs = []
    for dy in range(-radius, radius + 1):
        for dx in range(-radius, radius + 1):
            y, x = start + dy * stride2, start + dx * stride2
            moved = second[:, :, y:y + span_h, x:x + span_w]
            match = anchor * moved if is_multiply else jnp.abs(anchor - moved)
            summed = jnp.sum(match, axis=1)  # (N, span_h, span_w)
            windows = sum(summed[:, i:i + (out_h - 1) * stride1 + 1:stride1, j:j + (out_w - 1) * stride1 + 1:stride1]
                          for i in range(kernel_size) for j in range(kernel_size))
            costs.append(windows)
    norm = jnp.asarray(kernel_size * kernel_size * data1.shape[1], data1.dtype)
    return (jnp.stack(costs, axis=1) / norm).astype(data1.dtype)
