#!/usr/bin/python3
"""Independent sizes for tests/test_onnx.c: every value of an ONNX model
with its byte size, from Debian's python3-onnx shape inference plus a
numpy evaluation of the constant shape computations (not arenabench's
folder).  Usage: sizes.py MODEL [NAME=VALUE...]; prints "bytes name" lines
for values whose shape is fully known and "? name" for the others."""
import sys
import numpy as np
import onnx
from onnx import helper, numpy_helper, shape_inference, TensorProto

model = onnx.load(sys.argv[1])
dims = dict(a.rsplit('=', 1) for a in sys.argv[2:])
g = model.graph
for i in g.input:
    for d in i.type.tensor_type.shape.dim:
        if d.dim_param in dims:
            d.dim_value = int(dims[d.dim_param])

known = {t.name: numpy_helper.to_array(t) for t in g.initializer}
NP = {TensorProto.INT64: np.int64, TensorProto.INT32: np.int32, TensorProto.FLOAT: np.float32,
      TensorProto.BOOL: np.bool_, TensorProto.DOUBLE: np.float64}


def attrs(n):
    return {a.name: helper.get_attribute_value(a) for a in n.attribute}


def evaluate(n, x, shapes):
    a, op = attrs(n), n.op_type
    if op == 'Constant':
        return numpy_helper.to_array(a['value']) if 'value' in a else None
    if op == 'Shape':
        s = shapes.get(n.input[0])
        return None if s is None else np.array(s, np.int64)[a.get('start', 0):a.get('end', None)]
    if any(v is None for v in x):
        return None
    if op == 'ConstantOfShape':
        v = numpy_helper.to_array(a['value']) if 'value' in a else np.zeros(1, np.float32)
        return np.full(tuple(x[0]), v.reshape(-1)[0], v.dtype)
    if op == 'Gather':
        return np.take(x[0], x[1], axis=a.get('axis', 0))
    if op == 'Concat':
        return np.concatenate(x, axis=a.get('axis', 0))
    if op == 'Unsqueeze':
        ax = a.get('axes', list(x[1]) if len(x) > 1 else [])
        r = x[0]
        for k in sorted(int(v) % (r.ndim + len(ax)) for v in ax):
            r = np.expand_dims(r, k)
        return r
    if op == 'Squeeze':
        ax = a.get('axes', list(x[1]) if len(x) > 1 else None)
        return np.squeeze(x[0], axis=None if ax is None else tuple(int(v) for v in ax))
    if op == 'Slice':
        if 'starts' in a:
            st, en, ax, sp = a['starts'], a['ends'], a.get('axes', range(len(a['starts']))), [1] * len(a['starts'])
        else:
            st, en = x[1], x[2]
            ax = x[3] if len(x) > 3 else range(len(st))
            sp = x[4] if len(x) > 4 else [1] * len(st)
        sl = [slice(None)] * x[0].ndim
        for s_, e_, a_, p_ in zip(st, en, ax, sp):
            sl[int(a_)] = slice(int(s_), int(e_), int(p_))
        return x[0][tuple(sl)]
    if op == 'Cast':
        t = NP.get(a['to'])
        return None if t is None else x[0].astype(t)
    if op in ('Add', 'Sub', 'Mul', 'Div', 'Equal', 'Less', 'Greater', 'Where', 'Range',
              'NonZero', 'Transpose', 'Reshape', 'Identity', 'Not', 'Neg', 'Max', 'Min'):
        f = {'Add': np.add, 'Sub': np.subtract, 'Mul': np.multiply, 'Equal': np.equal,
             'Less': np.less, 'Greater': np.greater, 'Max': np.maximum, 'Min': np.minimum}
        if op in f:
            return f[op](x[0], x[1])
        if op == 'Div':
            return x[0] // x[1] if x[0].dtype.kind == 'i' else x[0] / x[1]
        if op == 'Where':
            return np.where(x[0], x[1], x[2])
        if op == 'Range':
            return np.arange(x[0], x[1], x[2])
        if op == 'NonZero':
            return np.array(np.nonzero(x[0]), np.int64)
        if op == 'Transpose':
            return np.transpose(x[0], a.get('perm'))
        if op == 'Reshape':
            sh = [x[0].shape[k] if v == 0 else v for k, v in enumerate(x[1])]
            return x[0].reshape(sh)
        if op == 'Not':
            return np.logical_not(x[0])
        if op == 'Neg':
            return -x[0]
        return x[0]
    return None


def shapes_of(m):
    out = {}
    for vi in list(m.graph.input) + list(m.graph.value_info) + list(m.graph.output):
        t = vi.type.tensor_type
        if t.HasField('shape') and all(d.HasField('dim_value') for d in t.shape.dim):
            out[vi.name] = ([d.dim_value for d in t.shape.dim], t.elem_type)
    for t in m.graph.initializer:
        out[t.name] = (list(t.dims), t.data_type)
    return out


BITS = {1: 32, 2: 8, 3: 8, 4: 16, 5: 16, 6: 32, 7: 64, 9: 8, 10: 16, 11: 64, 12: 32, 13: 64, 16: 16}
for _ in range(16):
    m = onnx.ModelProto()
    m.CopyFrom(model)
    for n in m.graph.node:  # folded values as Constant nodes
        if len(n.output) == 1 and n.output[0] in known and n.op_type != 'Constant' \
                and known[n.output[0]].dtype.kind in 'iub' and known[n.output[0]].size <= 65536:
            v = numpy_helper.from_array(known[n.output[0]].astype(np.int64))
            c = helper.make_node('Constant', [], [n.output[0]], value=v)
            n.CopyFrom(c)
    inf = shape_inference.infer_shapes(m, check_type=False, strict_mode=False, data_prop=True)
    sh = shapes_of(inf)
    # own rules for ops ONNX 1.12 leaves open
    for n in model.graph.node:
        s = sh.get(n.input[0]) if n.input else None
        if s is None:
            continue
        if n.op_type in ('ImageScaler', 'Affine', 'Dropout') and n.output[0] not in sh:
            sh[n.output[0]] = s
        if n.op_type == 'Dropout' and len(n.output) > 1 and n.output[1]:
            sh.setdefault(n.output[1], (s[0], 9))
        if n.op_type == 'Crop' and n.output[0] not in sh:
            b = attrs(n)['border']
            d = list(s[0])
            d[2] -= b[1] + b[3]
            d[3] -= b[0] + b[2]
            sh[n.output[0]] = (d, s[1])
    new = 0
    for n in model.graph.node:
        if len(n.output) != 1 or n.output[0] in known:
            continue
        x = [known.get(i) if i else None for i in n.input]
        try:
            v = evaluate(n, x, {k: s for k, (s, _) in sh.items()})
        except Exception:
            v = None
        if v is not None:
            known[n.output[0]] = np.asarray(v)
            new += 1
    hints = [k for k in sh if k not in {vi.name for vi in model.graph.value_info}]
    for n in model.graph.node:
        if n.op_type in ('ImageScaler', 'Affine', 'Crop', 'Dropout'):
            for o in n.output:
                if o in sh and o not in [vi.name for vi in model.graph.value_info]:
                    model.graph.value_info.append(helper.make_tensor_value_info(o, sh[o][1], sh[o][0]))
                    new += 1
    if not new:
        break
for n in model.graph.node:
    for o in n.output:
        if not o:
            continue
        if o in sh and sh[o][1] in BITS:
            d, e = sh[o]
            print((int(np.prod(d, dtype=np.int64)) * BITS[e] + 7) // 8, o)
        elif o in known:
            print(known[o].nbytes, o)
        else:
            print('?', o)
