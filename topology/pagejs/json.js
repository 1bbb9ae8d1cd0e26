// jsonText(v): JSON.stringify(v) of a value made of plain objects, arrays,
// strings, numbers, booleans and null, written as JSON writes it whatever
// toJSON the page has put on Object.prototype or Array.prototype
// (Prototype.js 1.6 defines Array.prototype.toJSON, with which
// JSON.stringify writes every array as a string of JSON): the page's toJSON
// is taken off for the call and put back after it. A toJSON the page made
// non-configurable stays, and is used.
// Declares: jsonText.
const jsonText = (v) => {
  const protos = [Object.prototype, Array.prototype], saved = [];
  for (let i = 0; i < protos.length; i++) {
    const d = Object.getOwnPropertyDescriptor(protos[i], "toJSON");
    if (d && d.configurable) { saved[saved.length] = [protos[i], d]; delete protos[i].toJSON; }
  }
  try {
    return JSON.stringify(v);
  } finally {
    for (let i = 0; i < saved.length; i++) Object.defineProperty(saved[i][0], "toJSON", saved[i][1]);
  }
};
